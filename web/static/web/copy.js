// The waiting page's "Copy the link" button: copies the table's address for a friend. Delegated from the document,
// so it works after htmx swaps the table in again; without the clipboard (an insecure origin), the address is
// selected instead, for Ctrl-C.
document.addEventListener("click", (event) => {
  const button = event.target.closest("[data-copy]");
  if (!button) return;
  const input = document.querySelector(button.dataset.copy);
  const done = document.getElementById("copy-done");
  input.select();
  const said = (words) => { if (done) done.textContent = words; };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(input.value).then(() => said("Copied."), () => said("Selected: press Ctrl-C."));
  } else {
    said("Selected: press Ctrl-C.");
  }
});
