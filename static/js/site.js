// Small progressive enhancements; every page works without this file.
document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll("[data-confirm]").forEach((el) => {
    el.addEventListener("click", (event) => {
      if (!window.confirm(el.dataset.confirm)) event.preventDefault();
    });
  });
  // On a narrow screen the navigation folds behind a Menu button (site.css);
  // without this script it stays open.
  const toggle = document.querySelector(".nav-toggle");
  const panel = toggle && document.getElementById(toggle.getAttribute("aria-controls"));
  if (toggle && panel) {
    document.documentElement.classList.add("nav-folds");
    toggle.hidden = false;
    toggle.addEventListener("click", () => {
      const open = toggle.getAttribute("aria-expanded") !== "true";
      toggle.setAttribute("aria-expanded", String(open));
      panel.classList.toggle("is-open", open);
    });
  }
});

// Board: a card's zoom link opens the enlarged face in the board's dialog
// (without this script the link opens the picture itself).
document.addEventListener("click", (event) => {
  const dialog = document.getElementById("card-zoom");
  if (dialog && event.target === dialog) {
    dialog.close();
    return;
  }
  const link = event.target.closest && event.target.closest("[data-zoom]");
  if (!link || !dialog || !dialog.showModal) return;
  event.preventDefault();
  const img = dialog.querySelector("img");
  img.src = link.getAttribute("href");
  img.alt = link.getAttribute("aria-label").replace(/^Enlarge /, "");
  dialog.showModal();
});

// Board: what changed since the move this tab saw last flashes once (play.css);
// the watched parts' text is kept per board in sessionStorage to compare with.
function markBoardChanges() {
  const board = document.getElementById("board");
  if (!board) return;
  const key = `board-seen:${location.pathname}`;
  const now = {};
  board.querySelectorAll("[data-watch]").forEach((el) => {
    now[el.dataset.watch] = el.textContent.replace(/\s+/g, " ").trim();
  });
  let before = null;
  try {
    before = JSON.parse(sessionStorage.getItem(key) || "null");
    sessionStorage.setItem(key, JSON.stringify({ version: board.dataset.version, now }));
  } catch (error) {
    return; // storage off: the board simply does not flash
  }
  if (!before || before.version === board.dataset.version) return;
  board.querySelectorAll("[data-watch]").forEach((el) => {
    const name = el.dataset.watch;
    if (name in before.now && before.now[name] !== now[name]) el.classList.add("changed");
  });
}
document.addEventListener("DOMContentLoaded", markBoardChanges);
document.addEventListener("htmx:afterSettle", markBoardChanges);
