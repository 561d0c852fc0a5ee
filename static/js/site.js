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
