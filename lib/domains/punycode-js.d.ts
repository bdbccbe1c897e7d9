// punycode.js ships without types; only the two converters the domain helpers use.
declare module "punycode.js" {
  const punycode: {
    toASCII(domain: string): string;
    toUnicode(domain: string): string;
  };
  export default punycode;
}
