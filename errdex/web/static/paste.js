// Ctrl+Enter (Cmd+Enter on a Mac) sends a paste form; the pages work without this script, and say so only with it.
document.querySelectorAll(".keys[hidden]").forEach((hint) => hint.removeAttribute("hidden"));
document.addEventListener("keydown", (event) => {
  if (event.key !== "Enter" || !(event.ctrlKey || event.metaKey)) return;
  const form = event.target instanceof HTMLTextAreaElement ? event.target.closest("form.paste-form") : null;
  if (form && event.target.value.trim()) {
    event.preventDefault();
    form.requestSubmit();
  }
});
