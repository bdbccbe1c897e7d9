import * as React from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Slot } from "@/components/ui/slot";

/** What the child element is rendered with: the merged props, captured. */
function captured(slot: React.ReactElement<{ children: React.ReactElement }>): Record<string, unknown> {
  let props: Record<string, unknown> = {};
  function Capture(p: Record<string, unknown>) {
    props = p;
    return null;
  }
  const child = slot.props.children;
  renderToStaticMarkup(React.cloneElement(slot, {}, <Capture {...(child.props as object)} />));
  return props;
}

describe("Slot", () => {
  it("renders the child with the slot's props, the child's winning, classes and descriptions joined", () => {
    const html = renderToStaticMarkup(
      <Slot className="button" data-slot="button" title="slot" aria-describedby="hint">
        <a href="/x" className="link" title="child" aria-describedby="error">
          Go
        </a>
      </Slot>,
    );
    expect(html).toBe('<a href="/x" class="button link" title="child" aria-describedby="error hint" data-slot="button">Go</a>');
  });

  it("runs both event handlers, the child's first, and merges styles", () => {
    const calls: string[] = [];
    const props = captured(
      <Slot onClick={() => calls.push("slot")} style={{ color: "red", margin: 1 }}>
        <a onClick={() => calls.push("child")} style={{ color: "blue" }} />
      </Slot>,
    );
    (props.onClick as () => void)();
    expect(calls).toEqual(["child", "slot"]);
    expect(props.style).toEqual({ color: "blue", margin: 1 });
  });

  it("keeps a handler only one side has", () => {
    const calls: string[] = [];
    const props = captured(
      <Slot onFocus={() => calls.push("slot")}>
        <a onBlur={() => calls.push("child")} />
      </Slot>,
    );
    (props.onFocus as () => void)();
    (props.onBlur as () => void)();
    expect(calls).toEqual(["slot", "child"]);
  });

  it("hands the node to both refs", () => {
    const mine = React.createRef<HTMLElement>();
    const theirs = React.createRef<HTMLAnchorElement>();
    const props = captured(
      <Slot ref={mine}>
        <a ref={theirs} />
      </Slot>,
    );
    const node = { tagName: "A" } as unknown as HTMLAnchorElement;
    (props.ref as (n: HTMLElement) => void)(node);
    expect(mine.current).toBe(node);
    expect(theirs.current).toBe(node);
  });
});
