/* handfoot's page script: sends actions to the API (with the table PIN), shows the answer in
   plain words, and reloads the live part of the page when the table changes (server-sent
   events). No framework, no build step; written for old phones. */
(function () {
  "use strict";

  var PIN_KEY = "handfoot-pin";
  var statusLine = document.getElementById("status");
  var live = document.getElementById("live");
  var seenVersion = Number(document.body.getAttribute("data-version")) || 0;
  var refreshing = false;
  var refreshAgain = false;

  function say(text, bad) {
    if (!statusLine) { return; }
    statusLine.textContent = text || "";
    statusLine.className = bad ? "status bad" : "status";
  }

  /* Clear "Working…" once the answer is in, unless the table has said something newer
     meanwhile (its live update often arrives before the answer). */
  function settled(waiting) {
    if (statusLine && statusLine.textContent === waiting) { say(""); }
  }

  function pin() {
    var box = document.getElementById("pin");
    var value = box ? box.value : "";
    if (!value) {
      try { value = window.localStorage.getItem(PIN_KEY) || ""; } catch (e) { value = ""; }
    }
    return value;
  }

  var pinBox = document.getElementById("pin");
  if (pinBox) {
    try { pinBox.value = window.localStorage.getItem(PIN_KEY) || ""; } catch (e) { /* private mode */ }
    pinBox.addEventListener("change", function () {
      try { window.localStorage.setItem(PIN_KEY, pinBox.value); } catch (e) { /* private mode */ }
    });
  }

  /* Send one request; resolve with the JSON answer, reject with a plain sentence. */
  function api(method, url, body, contentType) {
    var headers = { "Accept": "application/json" };
    var sent = body;
    if (body !== undefined && !contentType) {
      headers["Content-Type"] = "application/json";
      sent = JSON.stringify(body);
    } else if (contentType) {
      headers["Content-Type"] = contentType;
    }
    var code = pin();
    if (code) { headers["X-Table-PIN"] = code; }
    return fetch(url, { method: method, headers: headers, body: sent, credentials: "same-origin" })
      .then(function (response) {
        return response.text().then(function (text) {
          var data = null;
          try { data = text ? JSON.parse(text) : null; } catch (e) { data = null; }
          if (!response.ok) {
            var message = (data && data.error) || ("The table answered " + response.status + ".");
            if ((response.status === 401 || response.status === 403) && pinBox) { pinBox.focus(); }
            throw new Error(message);
          }
          return data;
        });
      }, function () {
        throw new Error("The table cannot be reached: is the handfoot machine on and on this network?");
      });
  }

  function busyButton(button, on) {
    if (!button) { return; }
    button.disabled = on;
    if (on) { button.setAttribute("data-label", button.textContent); button.textContent = "Working…"; }
    else if (button.getAttribute("data-label")) { button.textContent = button.getAttribute("data-label"); }
  }

  function done(data, then) {
    if (data && data.error) { say(data.error, true); }
    if (then) { window.location.href = then; return; }
    refresh();
  }

  /* Reload the page's live part: fetch the page again and swap <main>. Skipped while someone
     is typing in it, and done once more afterwards. */
  function refresh() {
    if (!live || !live.hasAttribute("data-live")) { return; }
    var active = document.activeElement;
    if (active && live.contains(active) && /INPUT|TEXTAREA|SELECT/.test(active.tagName)) {
      refreshAgain = true;
      return;
    }
    if (refreshing) { refreshAgain = true; return; }
    refreshing = true;
    fetch(window.location.href, { headers: { "Accept": "text/html" }, credentials: "same-origin" })
      .then(function (response) { return response.text(); })
      .then(function (text) {
        var page = new DOMParser().parseFromString(text, "text/html");
        var fresh = page.getElementById("live");
        if (fresh) {
          var typed = unsavedFields();
          var focused = document.activeElement;
          var typing = focused && live.contains(focused) && focused.name ? fieldKey(focused) : null;
          var upload = live.querySelector("input[data-upload]");
          live.innerHTML = fresh.innerHTML;
          restoreFields(typed, typing);
          keepUpload(upload);
        }
        var version = Number(page.body.getAttribute("data-version")) || seenVersion;
        if (version > seenVersion) { seenVersion = version; }
        var status = page.getElementById("status");
        if (status && status.textContent && statusLine && statusLine.className === "status") {
          statusLine.textContent = status.textContent;
        }
      })
      .catch(function () { say("The page could not be brought up to date; it will try again.", true); })
      .then(function () {
        refreshing = false;
        if (refreshAgain) { refreshAgain = false; refresh(); }
      });
  }

  /* Fields typed in but not saved yet, by form and name, so that a refresh (another phone's
     change) does not wipe them; unless the table's own value changed meanwhile (they were
     saved, here or on another phone): then the table's value is shown. */
  function fieldKey(field) {
    var form = field.form;
    return (form ? form.getAttribute("data-api") || form.id : "") + "|" + field.name;
  }

  function unsavedFields() {
    var typed = {};
    Array.prototype.forEach.call(live.querySelectorAll("input[name], textarea[name]"), function (field) {
      if (field.type !== "file" && field.value !== field.defaultValue) {
        typed[fieldKey(field)] = { value: field.value, base: field.defaultValue };
      }
    });
    return typed;
  }

  function restoreFields(typed, typing) {
    Array.prototype.forEach.call(live.querySelectorAll("input[name], textarea[name]"), function (field) {
      var key = fieldKey(field);
      var kept = typed[key];
      if (kept && kept.base === field.defaultValue) { field.value = kept.value; }
      if (key === typing) { field.focus(); }  /* someone began typing as the page was fetched */
    });
  }

  /* The photo picker stays the same element: a phone's file chooser is open for seconds, and
     a photo chosen in a picker swapped out meanwhile would fire its change event outside the
     page, and the photo would be lost without a word. */
  function keepUpload(old) {
    var fresh = old && live.querySelector("input[data-upload]");
    if (fresh) { fresh.parentNode.replaceChild(old, fresh); }
  }

  document.addEventListener("focusout", function () {
    if (refreshAgain) { window.setTimeout(refresh, 300); }
  });

  /* Buttons: data-post="URL" [data-body='JSON'] [data-confirm="question"] [data-then="/"]. */
  document.addEventListener("click", function (event) {
    var target = event.target;
    var button = target.closest ? target.closest("[data-post]") : null;
    if (button) {
      event.preventDefault();
      var question = button.getAttribute("data-confirm");
      if (question && !window.confirm(question)) { return; }
      var body = button.getAttribute("data-body");
      var then = button.getAttribute("data-then");
      busyButton(button, true);
      say("Working…");
      api("POST", button.getAttribute("data-post"), body ? JSON.parse(body) : {})
        .then(function (data) { settled("Working…"); done(data, then); },
              function (error) { say(error.message, true); })
        .then(function () { busyButton(button, false); });
      return;
    }
    var card = target.closest ? target.closest("[data-card]") : null;
    if (card) { openPicker(card, null); return; }
    var add = target.closest ? target.closest("[data-add]") : null;
    if (add) { openPicker(null, add); return; }
    var pick = target.closest ? target.closest("[data-pick]") : null;
    if (pick) { picked(pick.getAttribute("data-pick")); return; }
    if (target === picker) { closePicker(); return; }
    if (target.closest && target.closest("[data-check-rules]")) { checkRules(); return; }
    if (target.closest && target.closest("[data-load-preset]")) { loadPreset(); return; }
  });

  /* Forms: data-api="URL"; every named field is sent as text. */
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.id === "new-game") { event.preventDefault(); newGame(form); return; }
    var url = form.getAttribute("data-api");
    if (!url) { return; }
    event.preventDefault();
    var body = {};
    Array.prototype.forEach.call(form.elements, function (field) {
      if (field.name) { body[field.name] = field.value; }
    });
    var button = form.querySelector("button[type=submit]");
    busyButton(button, true);
    if (document.activeElement) { document.activeElement.blur(); }
    api("POST", url, body)
      .then(function (data) {
              Array.prototype.forEach.call(form.elements, function (field) {
                if (field.name) { field.defaultValue = field.value; }  /* saved: the table's now */
              });
              say("Saved.");
              done(data, form.getAttribute("data-then"));
            },
            function (error) { say(error.message, true); })
      .then(function () { busyButton(button, false); });
  });

  /* A phone's photo, scored in the chosen mode for the chosen side. */
  document.addEventListener("change", function (event) {
    var input = event.target;
    if (!input.hasAttribute || !input.hasAttribute("data-upload") || !input.files.length) { return; }
    var file = input.files[0];
    say("Sending the photo…");
    api("POST", "/api/scans/upload", file, file.type || "application/octet-stream")
      .then(function (data) { settled("Sending the photo…"); done(data); },
            function (error) { say(error.message, true); })
      .then(function () { input.value = ""; });
  });

  /* The card picker: change, accept, move or delete a card; or add one. */
  var picker = document.getElementById("picker");
  var pickerState = null;

  function option(select, value, label) {
    var item = document.createElement("option");
    item.value = value;
    item.textContent = label;
    select.appendChild(item);
  }

  function targetLabel(target) {
    if (target.indexOf("meld:") === 0) { return "meld " + target.slice(5); }
    return { "new": "a new meld", "red_threes": "the red threes", "leftovers": "the cards left over" }[target] || target;
  }

  function openPicker(card, add) {
    if (!picker) { return; }
    var codes = (document.body.getAttribute("data-codes") || "").split(" ");
    var select = document.getElementById("picker-code");
    var to = document.getElementById("picker-to");
    select.innerHTML = "";
    to.innerHTML = "";
    codes.forEach(function (code) { if (code) { option(select, code, code); } });
    var source = card || add;
    pickerState = { scan: source.getAttribute("data-scan"), card: card ? Number(card.getAttribute("data-card")) : null,
                    add: add ? add.getAttribute("data-add") : null };
    var title = document.getElementById("picker-title");
    var reason = document.getElementById("picker-reason");
    if (card) {
      var code = card.getAttribute("data-code");
      var where = card.getAttribute("data-where") || "";
      title.textContent = "Card " + code;
      reason.textContent = card.getAttribute("data-reason") || "";
      select.value = code;
      (card.getAttribute("data-targets") || "").split(" ").forEach(function (target) {
        if (target && target !== where) { option(to, target, targetLabel(target)); }
      });
    } else {
      title.textContent = "Add a card to " + targetLabel(pickerState.add);
      reason.textContent = "Choose the card the camera missed.";
    }
    Array.prototype.forEach.call(picker.querySelectorAll("[data-for=card]"), function (row) { row.hidden = !card; });
    picker.querySelector("[data-for=check]").hidden = !(card && card.classList.contains("check"));
    picker.querySelector("[data-for=move]").hidden = !card || !to.options.length;
    picker.querySelector("[data-pick=change]").hidden = !card;
    picker.querySelector("[data-pick=add]").hidden = !!card;
    picker.hidden = false;
    select.focus();
  }

  function closePicker() { if (picker) { picker.hidden = true; } pickerState = null; }

  function picked(action) {
    if (action === "close" || !pickerState) { closePicker(); return; }
    var body = { action: action };
    if (action === "add") {
      body.code = document.getElementById("picker-code").value;
      body.to = pickerState.add;
    } else {
      body.card = pickerState.card;
      if (action === "change") { body.code = document.getElementById("picker-code").value; }
      if (action === "move") { body.to = document.getElementById("picker-to").value; }
    }
    var url = "/api/scans/" + pickerState.scan + "/corrections";
    closePicker();
    say("Correcting…");
    api("POST", url, body).then(function () { say("Corrected."); refresh(); },
                                function (error) { say(error.message, true); });
  }

  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && picker && !picker.hidden) { closePicker(); }
  });

  /* New game: teams, players and rules as the API wants them. */
  function chosenRules(form) {
    var chosen = form.querySelector("input[name=rules]:checked");
    return chosen ? chosen.value : "pagat";
  }

  function newGame(form) {
    var sides = [];
    for (var n = 1; n <= 4; n += 1) {
      var name = form.elements["side_" + n].value.trim();
      if (name) { sides.push({ name: name, players: form.elements["players_" + n].value }); }
    }
    var rules = chosenRules(form);
    var body = { name: form.elements.name.value, sides: sides };
    if (rules === "house") { body.rules_toml = form.elements.rules_toml.value; } else { body.rules = rules; }
    if (!sides.length) { say("Give at least one team a name.", true); return; }
    api("POST", "/api/games", body).then(function () { window.location.href = "/"; },
                                          function (error) { say(error.message, true); });
  }

  function checkRules() {
    var text = document.getElementById("rules_toml").value;
    var out = document.getElementById("rules-result");
    api("POST", "/api/rules/check", { rules_toml: text })
      .then(function (data) { out.textContent = "These rules can be played: " + data.name + " (" + data.rules.description + ")."; },
            function (error) { out.textContent = error.message; });
  }

  function loadPreset() {
    var form = document.getElementById("new-game");
    var rules = chosenRules(form);
    if (rules === "house") { rules = "pagat"; }
    fetch("/api/rules/" + encodeURIComponent(rules) + "/toml", { credentials: "same-origin" })
      .then(function (response) { return response.text(); })
      .then(function (text) {
        document.getElementById("rules_toml").value = text;
        form.querySelector("input[name=rules][value=house]").checked = true;
      });
  }

  /* Live updates: every change anywhere at the table reloads this page's live part. */
  if (window.EventSource) {
    var events = new EventSource("/api/events");
    events.addEventListener("state", function (event) {
      var data = {};
      try { data = JSON.parse(event.data); } catch (e) { return; }
      if (data.kind === "hello" && data.version === seenVersion) { return; }
      if (data.version > seenVersion || data.kind === "hello") {
        seenVersion = Math.max(seenVersion, data.version);
        if (data.message && data.kind !== "hello") { say(data.message); }
        refresh();
      }
    });
  }
}());
