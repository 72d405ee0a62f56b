/**
 * The nonce that the server's Content-Security-Policy allows on this page's `<style>` tags. The
 * server fills it into index.html's `<meta property="csp-nonce">` for each answer (Vite's
 * convention: its preload helper reads the same tag). The dev server sends no policy.
 */
export const CSP_NONCE: string | undefined =
  document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce || undefined;

/**
 * Gives every `<style>` element that scripts create the page's nonce. antd's own styles get it
 * from ConfigProvider's `csp`; @rc-component/util writes its scroll lock (while a drawer or modal
 * is open) and its scrollbar measure into style tags without one (react-component/util#613).
 * Style tags in parsed HTML are not created here, so injected markup stays refused.
 */
export function nonceCreatedStyles(): void {
  const nonce = CSP_NONCE;
  if (!nonce) return;
  const createElement = document.createElement.bind(document);
  document.createElement = ((tagName: string, options?: ElementCreationOptions) => {
    const element = createElement(tagName, options);
    if (element instanceof HTMLStyleElement) element.nonce = nonce;
    return element;
  }) as typeof document.createElement;
}
