// The chat's strings in the reader's language, from Django's JavaScript catalog (/jsi18n/<lang>/…, loaded
// before the modules; docs/i18n.md). Without it the English source text is shown.

const catalog = () => window.django || null;

export function gettext(text) {
  const c = catalog();
  return c ? c.gettext(text) : text;
}

export function ngettext(one, many, n) {
  const c = catalog();
  return c ? c.ngettext(one, many, n) : n === 1 ? one : many;
}

/** `interpolate(gettext("Chat of %(day)s"), { day })`: named placeholders, as in the Python catalog. */
export function interpolate(format, values) {
  return format.replace(/%\((\w+)\)s/g, (_match, key) => String(values[key] ?? ""));
}
