// /transactions: a category change is saved as soon as it is chosen (two clicks: open the menu, pick), in place.
// Without this file the row's "Move" button posts the same form and the page reloads at the row.
(function () {
  "use strict";
  const gettext = (text) => (window.django ? window.django.gettext(text) : text);

  async function save(form) {
    const status = form.querySelector(".recat-status");
    const select = form.querySelector("select");
    const body = new FormData(form);
    select.disabled = true;
    status.textContent = gettext("Saving…");
    try {
      const response = await fetch(form.action, {
        method: "POST",
        body,
        headers: { Accept: "application/json" },
        credentials: "same-origin",
      });
      const reply = await response.json().catch(() => ({}));
      if (!response.ok) throw new Error((reply.error && reply.error.message) || gettext("Could not save."));
      status.textContent = reply.message || gettext("Saved.");
      select.dataset.saved = select.value;
    } catch (error) {
      status.textContent = error.message;
      if (select.dataset.saved) select.value = select.dataset.saved;
    } finally {
      select.disabled = false;
    }
  }

  // FormData leaves a disabled select out: save() reads the form before it disables the menu.
  document.querySelectorAll("form[data-recategorize]").forEach((form) => {
    const select = form.querySelector("select");
    select.dataset.saved = select.value;
    form.classList.add("live");
    select.addEventListener("change", () => save(form));
  });
})();
