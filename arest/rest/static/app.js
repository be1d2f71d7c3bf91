// The pages' script (arest/rest/pages.py): every call goes to the REST API itself, bearing
// the key the person entered once (kept for this tab: sessionStorage). Links load the next
// page with that key; a form is sent as the JSON request its route takes; a problem is
// shown beside the form, its violated readings listed. No framework, nothing fetched from
// elsewhere; text from the server is set as text, never parsed as HTML, except whole pages
// of this server's own rendering.
"use strict";

const KEY = "arest-key";

function key() {
  return sessionStorage.getItem(KEY);
}

function headers(extra) {
  const out = Object.assign({}, extra);
  const secret = key();
  if (secret) out.Authorization = "Bearer " + secret;
  return out;
}

function here() {
  return location.pathname + location.search;
}

function showKeyState() {
  const state = document.getElementById("key-state");
  if (state) state.textContent = key() ? "a key is in use for this tab" : "no key";
}

// Load a page of this server with the key, and put it in place of this one.
async function show(url, push) {
  const response = await fetch(url, {headers: headers({Accept: "text/html"})});
  const text = await response.text();
  const page = new DOMParser().parseFromString(text, "text/html");
  document.title = page.title;
  document.body.replaceWith(document.adoptNode(page.body));
  if (push) history.pushState(null, "", url);
  showKeyState();
}

function changed(element) {
  if (element.tagName === "SELECT") {
    return Array.from(element.options).some((o) => o.selected !== o.defaultSelected);
  }
  return element.value !== element.defaultValue;
}

// The JSON body of a form: each named field by its shape; data-send="changes" sends only
// the fields changed, an emptied one as null (which retracts it).
function collect(form) {
  const onlyChanges = form.dataset.send === "changes";
  const body = {};
  for (const element of form.elements) {
    const name = element.name;
    if (!name || !element.dataset.shape) continue;
    if (onlyChanges && !changed(element)) continue;
    const shape = element.dataset.shape;
    let value;
    if (shape === "many") {
      value = element.tagName === "SELECT"
        ? Array.from(element.selectedOptions).map((o) => o.value)
        : element.value.split("\n").map((line) => line.trim()).filter((line) => line);
      if (!value.length) value = null;
    } else if (shape === "flag") {
      value = element.value === "" ? null : element.value === "true";
    } else if (shape === "json") {
      value = element.value.trim() === "" ? null : JSON.parse(element.value);
    } else {
      value = element.value === "" ? null : element.value;
    }
    if (value === null && !onlyChanges) continue;
    body[name] = value;
  }
  return body;
}

function showProblem(form, problem) {
  const place = form.querySelector(".problem");
  place.replaceChildren();
  const detail = document.createElement("p");
  detail.className = "detail";
  detail.textContent = problem.detail || problem.title || "refused";
  place.append(detail);
  const violations = problem.violations || [];
  if (violations.length) {
    const list = document.createElement("ul");
    list.className = "violations";
    for (const violation of violations) {
      const item = document.createElement("li");
      item.className = "violation";
      item.textContent = violation.reading;
      list.append(item);
    }
    place.append(list);
  }
  place.scrollIntoView({block: "nearest"});
}

async function send(form) {
  let body;
  try {
    body = collect(form);
  } catch (error) {
    showProblem(form, {detail: "a field is not JSON: " + error.message});
    return;
  }
  const method = form.dataset.method;
  const init = {method: method, headers: headers({Accept: "application/json"})};
  if (method !== "DELETE") {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(form.dataset.action, init);
  if (!response.ok) {
    let problem;
    try {
      problem = await response.json();
    } catch (error) {
      problem = {detail: response.status + " " + response.statusText};
    }
    showProblem(form, problem);
    return;
  }
  const next = response.headers.get("Location") || form.dataset.then || here();
  await show(next, next !== here());
}

document.addEventListener("click", (event) => {
  const link = event.target.closest("a[href]");
  if (!link || link.dataset.protocol || link.origin !== location.origin) return;
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
  event.preventDefault();
  show(link.pathname + link.search, true);
});

document.addEventListener("submit", (event) => {
  const form = event.target;
  if (form.id === "key-form") {
    event.preventDefault();
    const secret = form.elements.key.value.trim();
    if (secret) sessionStorage.setItem(KEY, secret);
    show(here(), false);
  } else if (form.classList.contains("templated")) {
    event.preventDefault();
    const query = new URLSearchParams(new FormData(form)).toString();
    const url = new URL(form.getAttribute("action"), location.origin);
    show(url.pathname + (query ? "?" + query : ""), true);
  } else if (form.dataset.method) {
    event.preventDefault();
    send(form);
  }
});

document.addEventListener("click", (event) => {
  if (event.target.id !== "forget-key") return;
  sessionStorage.removeItem(KEY);
  show(here(), false);
});

window.addEventListener("popstate", () => show(here(), false));

// A page the browser loaded itself came without the key: asked for one, load it with it.
if (document.body.dataset.status === "401" && key()) {
  show(here(), false);
}
showKeyState();
