import * as React from "react";

type SlotProps = React.HTMLAttributes<HTMLElement> & { children?: React.ReactNode; ref?: React.Ref<HTMLElement> } & Record<`data-${string}`, unknown>;
type Props = Record<string, unknown> & { ref?: React.Ref<unknown> };

function setRef<T>(ref: React.Ref<T> | undefined, node: T): void {
  if (typeof ref === "function") ref(node);
  else if (ref) (ref as React.RefObject<T>).current = node;
}

/**
 * Radix's Slot as `asChild` uses it here (a link drawn as a button, a form control labelled
 * by its field): renders its one child element with the slot's props merged in. The child's
 * props win, except that event handlers run both (the child's first), classes, styles and
 * descriptions (`aria-describedby`) are combined and refs both receive the node. Written here because this is all the shell and
 * the sign-in page need of radix, and its Slot weighed ten times as much.
 */
export function Slot({ children, ref, ...slotProps }: SlotProps) {
  const child = React.isValidElement<Props>(children) ? children : null;
  const childRef = child?.props.ref;
  const composedRef = React.useCallback(
    (node: HTMLElement | null) => {
      setRef(ref, node);
      setRef(childRef, node);
    },
    [ref, childRef],
  );
  if (!child) return React.Children.count(children) > 1 ? React.Children.only(null) : null;

  const own = slotProps as Props;
  const merged: Props = { ...own, ...child.props };
  for (const key of Object.keys(child.props)) {
    const slotValue = own[key];
    const childValue = child.props[key];
    if (/^on[A-Z]/.test(key) && typeof slotValue === "function" && typeof childValue === "function") {
      merged[key] = (...args: unknown[]) => {
        const result = (childValue as (...a: unknown[]) => unknown)(...args);
        (slotValue as (...a: unknown[]) => unknown)(...args);
        return result;
      };
    } else if (key === "style") merged.style = { ...(slotValue as object), ...(childValue as object) };
    else if (key === "className") merged.className = [slotValue, childValue].filter(Boolean).join(" ");
    else if (key === "aria-describedby") merged[key] = [childValue, slotValue].filter(Boolean).join(" ") || undefined;
  }
  if (ref || childRef) merged.ref = composedRef;
  return React.cloneElement(child, merged);
}
