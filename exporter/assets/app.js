"use strict";
// pitool export: the page is complete without this script. It adds the
// sidebar tree with filters and search, branch navigation, toggles, deep
// links, lazy loading of collapsed outputs and copy buttons. It never builds
// markup from session text: rows are filled with textContent.
(function () {
  const MAX_ROWS = 3000;
  const body = document.body;
  const allBranches = body.classList.contains("all-branches");
  const sections = Array.from(document.querySelectorAll("#messages > section.e"));
  const byId = new Map();
  const children = new Map();
  for (const s of sections) {
    const id = s.id.slice("entry-".length);
    byId.set(id, s);
    const p = s.dataset.p || "";
    if (!children.has(p)) children.set(p, []);
    children.get(p).push(id);
  }
  const shownFirst = sections.filter((s) => !s.classList.contains("off"));
  let current = shownFirst.length ? shownFirst[shownFirst.length - 1].id.slice(6) : "";
  let filter = "default";
  let query = "";
  let onPath = new Set();

  // ---- collapsed outputs: the full text is parsed only when opened ----
  function load(details) {
    const ns = details.querySelector(":scope > noscript");
    if (!ns) return;
    const div = document.createElement("div");
    div.className = "full";
    div.innerHTML = ns.textContent; // markup the exporter escaped, kept inert until now
    ns.replaceWith(div);
  }
  document.addEventListener("toggle", (ev) => {
    const d = ev.target;
    if (d instanceof HTMLDetailsElement && d.open && d.classList.contains("out")) load(d);
  }, true);

  // ---- branches ----
  function pathTo(id) {
    const ids = [];
    for (let cur = id, guard = 0; cur && byId.has(cur) && guard <= sections.length; guard++) {
      ids.push(cur);
      cur = byId.get(cur).dataset.p;
    }
    return ids.reverse();
  }
  function newestLeaf(id) {
    let cur = id;
    for (let guard = 0; guard <= sections.length; guard++) {
      const kids = children.get(cur);
      if (!kids || !kids.length) return cur;
      cur = kids[kids.length - 1];
    }
    return cur;
  }
  function showBranch(id) {
    onPath = new Set(pathTo(allBranches ? newestLeaf(id) : current));
    if (!allBranches) return;
    for (const s of sections) {
      const off = !onPath.has(s.id.slice(6));
      s.classList.toggle("off", off);
      const prev = s.previousElementSibling;
      if (prev && prev.classList.contains("branch-start")) prev.classList.toggle("off", off);
    }
  }

  // ---- sidebar ----
  const tree = document.getElementById("tree");
  const status = document.getElementById("tree-status");
  const kindName = { user: "user", assistant: "assistant", tool: "tool", bash: "bash", system: "system",
    custom: "custom", compaction: "compaction", summary: "summary", setting: "" };
  function visible(s) {
    const k = s.dataset.k;
    switch (filter) {
      case "user": return k === "user";
      case "labeled": return !!s.dataset.l;
      case "no-tools": return k !== "setting" && k !== "tool" && !(k === "assistant" && !s.querySelector(".md"));
      case "all": return true;
      default: return k !== "setting";
    }
  }
  const textCache = new Map();
  function matches(s) {
    if (!query) return true;
    let t = textCache.get(s);
    if (t === undefined) {
      t = ((s.dataset.l || "") + " " + s.textContent).toLowerCase();
      textCache.set(s, t);
    }
    return t.includes(query);
  }
  function depthOf(order) {
    // depth grows only below a fork, as in Pi's tree
    const depth = new Map();
    for (const id of order) {
      const p = byId.get(id).dataset.p || "";
      const siblings = (children.get(p) || []).length;
      const d = depth.has(p) ? depth.get(p) + (siblings > 1 ? 1 : 0) : 0;
      depth.set(id, d);
    }
    return depth;
  }
  let depths = null;
  function renderTree() {
    if (!depths) depths = depthOf(sections.map((s) => s.id.slice(6)));
    const frag = document.createDocumentFragment();
    let shown = 0, matched = 0;
    for (const s of sections) {
      if (!visible(s) || !matches(s)) continue;
      matched++;
      if (shown >= MAX_ROWS) continue;
      shown++;
      const id = s.id.slice(6);
      const row = document.createElement("div");
      row.className = "row k-" + s.dataset.k + (onPath.has(id) ? " path" : "") + (id === current ? " current" : "");
      row.dataset.id = id;
      row.setAttribute("role", "treeitem");
      row.style.paddingLeft = 10 + Math.min(depths.get(id) || 0, 30) * 10 + "px";
      if (s.dataset.l) {
        const tag = document.createElement("span");
        tag.className = "tag";
        tag.textContent = "[" + s.dataset.l + "] ";
        row.appendChild(tag);
      }
      const who = kindName[s.dataset.k];
      if (who) {
        const w = document.createElement("span");
        w.className = "who";
        w.textContent = who + ": ";
        row.appendChild(w);
      }
      row.appendChild(document.createTextNode(s.dataset.s || ""));
      frag.appendChild(row);
    }
    tree.replaceChildren(frag);
    status.textContent = matched + " / " + sections.length + " entries" + (matched > shown ? " (first " + shown + " listed; search to narrow)" : "");
  }
  tree.addEventListener("click", (ev) => {
    const row = ev.target.closest(".row");
    if (row) go(row.dataset.id, true);
  });
  for (const b of document.querySelectorAll(".filters button")) {
    b.addEventListener("click", () => {
      filter = b.dataset.filter;
      for (const o of document.querySelectorAll(".filters button")) o.classList.toggle("on", o === b);
      renderTree();
    });
  }
  let searchTimer = 0;
  document.getElementById("tree-search").addEventListener("input", (ev) => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(() => { query = ev.target.value.trim().toLowerCase(); renderTree(); }, 150);
  });

  // ---- navigation and deep links ----
  function go(id, scroll) {
    let s = byId.get(id);
    if (!s) {
      const anchor = document.getElementById("entry-" + id);
      s = anchor && anchor.closest("section.e");
      if (!s) return;
      id = s.id.slice(6);
    }
    if (allBranches) current = id;
    showBranch(id);
    for (const c of document.querySelectorAll("section.e.current")) c.classList.remove("current");
    s.classList.add("current");
    renderTree();
    if (scroll) s.scrollIntoView({ block: "start" });
    history.replaceState(null, "", "#entry-" + id);
  }
  function fromHash() {
    const m = /^#entry-(.+)$/.exec(decodeURIComponent(location.hash));
    if (m) go(m[1], true);
  }
  window.addEventListener("hashchange", fromHash);

  // ---- toggles ----
  function press(action, on) {
    const b = document.querySelector('.toolbar button[data-action="' + action + '"]');
    if (b) b.setAttribute("aria-pressed", String(on));
  }
  const actions = {
    thinking() { press("thinking", !body.classList.toggle("hide-thinking")); },
    tools() {
      const open = !body.classList.contains("tools-open");
      body.classList.toggle("tools-open", open);
      for (const d of document.querySelectorAll(".tool details.out")) {
        if (open) load(d);
        d.open = open;
      }
      press("tools", open);
    },
    hidden() { press("hidden", body.classList.toggle("show-hidden")); },
  };
  for (const b of document.querySelectorAll(".toolbar button")) b.addEventListener("click", () => actions[b.dataset.action]());
  document.addEventListener("keydown", (ev) => {
    if (ev.target.closest("input, textarea") || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const a = { t: "thinking", o: "tools", h: "hidden" }[ev.key.toLowerCase()];
    if (a) actions[a]();
  });
  window.addEventListener("beforeprint", () => {
    for (const d of document.querySelectorAll("details")) { load(d); d.open = true; }
  });

  // ---- copy: entry links and code ----
  function flash(text) {
    const f = document.createElement("div");
    f.className = "flash";
    f.textContent = text;
    body.appendChild(f);
    setTimeout(() => f.remove(), 1200);
  }
  function copy(text, what) {
    if (navigator.clipboard) navigator.clipboard.writeText(text).then(() => flash("Copied " + what), () => flash("Copy failed"));
  }
  document.addEventListener("click", (ev) => {
    const ts = ev.target.closest("a.ts");
    if (!ts) return;
    ev.preventDefault();
    const id = ts.getAttribute("href").slice(7);
    go(id, false);
    copy(location.href.split("#")[0] + "#entry-" + id, "link");
  });
  const copyBtn = document.createElement("button");
  copyBtn.type = "button";
  copyBtn.className = "copy-btn";
  copyBtn.textContent = "Copy";
  copyBtn.hidden = true;
  let copyTarget = null;
  body.appendChild(copyBtn);
  document.addEventListener("mouseover", (ev) => {
    const pre = ev.target.closest && ev.target.closest("pre");
    if (!pre || pre === copyTarget) return;
    copyTarget = pre;
    const r = pre.getBoundingClientRect();
    copyBtn.style.top = window.scrollY + r.top + 4 + "px";
    copyBtn.style.left = window.scrollX + r.right - 56 + "px";
    copyBtn.hidden = false;
  });
  copyBtn.addEventListener("click", () => { if (copyTarget) copy(copyTarget.innerText, "text"); });

  showBranch(current);
  if (location.hash) fromHash(); else renderTree();
})();
