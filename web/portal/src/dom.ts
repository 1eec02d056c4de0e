/**
 * A minimal element builder. Text goes in as text nodes and attributes through setAttribute, never
 * through innerHTML, so tenant-provided text cannot inject markup.
 */
type Child = Node | string | null | undefined | false;
type Attributes = Record<string, string | boolean | undefined>;

export const h = <K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: Child[]): HTMLElementTagNameMap[K] => {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children) if (child !== null && child !== undefined && child !== false) element.append(child);
  return element;
};
