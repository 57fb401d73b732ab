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
  var refreshWaiting = [];
  var WORDS = {};
  try { WORDS = JSON.parse(document.body.getAttribute("data-words") || "{}"); } catch (e) { WORDS = {}; }

  /* A sentence of the page's language, its {fields} filled in. */
  function w(key, values) {
    var text = WORDS[key] || key;
    Object.keys(values || {}).forEach(function (name) { text = text.split("{" + name + "}").join(values[name]); });
    return text;
  }

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

  /* With a table PIN, photos need this phone's session (a cookie): open one with the PIN kept
     here, then draw the page's part again if a photo was refused before it. */
  function openSession() {
    if (!pin()) { return; }
    api("POST", "/api/session", {}).then(function () {
      var again = false;
      Array.prototype.forEach.call(document.querySelectorAll("img[src^='/scans/']"), function (img) {
        if (img.complete && !img.naturalWidth) { again = true; }
        else if (!img.complete) { img.addEventListener("error", function () { refresh(); }); }
      });
      if (again) { refresh(); }
    }, function () { /* a wrong PIN: the box has the cursor, and the next change says so */ });
  }
  if (pinBox) {
    openSession();
    pinBox.addEventListener("change", openSession);
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
            /* the answer in the page's language where the table can say it so */
            var message = (data && (data.shown || data.error)) || ("The table answered " + response.status + ".");
            if ((response.status === 401 || response.status === 403) && pinBox) { pinBox.focus(); }
            throw new Error(message);
          }
          return data;
        });
      }, function () {
        throw new Error(w("unreachable"));
      });
  }

  function busyButton(button, on) {
    if (!button) { return; }
    button.disabled = on;
    if (on) { button.setAttribute("data-label", button.textContent); button.textContent = w("working"); }
    else if (button.getAttribute("data-label")) { button.textContent = button.getAttribute("data-label"); }
  }

  function done(data, then) {
    if (data && data.error) { say(data.error, true); }
    if (then === "answer") { then = data && data.page; }  /* the answer names the page to show */
    if (then) { window.location.href = then; return Promise.resolve(); }
    return refresh();
  }

  /* Feedback where the finger is: the outcome of a tap is written right under what was
     tapped (found again in the refreshed page by ``key``, a CSS selector), and stays there
     until the next action; the status line at the top says it too. */
  function outcome(key, text, bad) {
    Array.prototype.forEach.call(document.querySelectorAll(".outcome"), function (old) {
      old.parentNode.removeChild(old);
    });
    if (!text) { return; }
    var near = null;
    try { near = typeof key === "function" ? key() : (key ? document.querySelector(key) : null); } catch (e) { near = null; }
    if (!near || near.closest("[hidden]")) { return; }
    var block = near.closest(".row, p, form, .cards, .scan") || near;
    if (block.classList && block.classList.contains("cards")) { block = block.parentNode; }
    var note = document.createElement("p");
    note.className = bad ? "outcome bad" : "outcome";
    note.setAttribute("role", "status");
    note.textContent = text;
    block.parentNode.insertBefore(note, block.nextSibling);
    var box = note.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) { note.scrollIntoView({ block: "center" }); }
  }

  function keyOf(element) {
    if (!element) { return null; }
    if (element.id) { return "#" + element.id; }
    var post = element.getAttribute("data-post");
    if (post) {
      var body = element.getAttribute("data-body") || "";
      return function () {
        var found = Array.prototype.filter.call(document.querySelectorAll("[data-post]"), function (each) {
          return each.getAttribute("data-post") === post && (each.getAttribute("data-body") || "") === body;
        });
        return found[0] || null;
      };
    }
    var form = element.closest && element.closest("form[data-api]");
    if (form) { return "form[data-api='" + form.getAttribute("data-api") + "'] button[type=submit]"; }
    return null;
  }

  /* The status line's sentence once the page is up to date (the table's own words). */
  function tableSays() { return statusLine ? statusLine.textContent : ""; }

  /* A scan's result, shown at once where the tap was: the scan's block, scrolled into sight,
     and its sentence under the button. */
  function showScan(data, key) {
    var shown = data && data.id !== undefined ? document.getElementById("scan-" + data.id) : null;
    outcome(key, tableSays(), false);
    if (shown) {
      shown.classList.add("fresh");
      var box = shown.getBoundingClientRect();
      if (box.top > window.innerHeight || box.bottom < 0) { shown.scrollIntoView({ block: "start" }); }
    }
    beep(data);
  }

  /* One short beep for a legal scan, two for one that is not, where the browser allows
     sound (after a tap on this page). */
  var audio = null;
  function beep(data) {
    if (!data || !data.mode) { return; }
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      var count = data.legal ? 1 : 2;
      for (var n = 0; n < count; n += 1) {
        var tone = audio.createOscillator();
        var gain = audio.createGain();
        tone.frequency.value = data.legal ? 880 : 440;
        gain.gain.value = 0.08;
        tone.connect(gain);
        gain.connect(audio.destination);
        var at = audio.currentTime + n * 0.25;
        tone.start(at);
        tone.stop(at + 0.15);
      }
    } catch (e) { /* no sound here: the page says it in words */ }
  }

  /* Reload the page's live part: fetch the page again and swap <main>. Skipped while someone
     is typing in it, and done once more afterwards. */
  function typingIn(element) {
    if (!element || !live.contains(element)) { return false; }
    if (element.tagName === "TEXTAREA" || element.tagName === "SELECT") { return true; }
    /* a photo chosen, a box ticked: nothing typed that a refresh could wipe */
    return element.tagName === "INPUT" && !/^(file|checkbox|radio|button|submit)$/.test(element.type);
  }

  function refresh() {
    if (!live || !live.hasAttribute("data-live")) { return Promise.resolve(); }
    return new Promise(function (resolve) {
      refreshWaiting.push(resolve);
      if (typingIn(document.activeElement) || refreshing) { refreshAgain = true; return; }
      fetchLive();
    });
  }

  function fetchLive() {
    refreshing = true;
    var waiting = refreshWaiting;
    refreshWaiting = [];
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
          var folds = openedFolds();
          live.innerHTML = fresh.innerHTML;
          reopenFolds(folds);
          restoreFields(typed, typing);
          keepUpload(upload);
          drawPictures();
        }
        var version = Number(page.body.getAttribute("data-version")) || seenVersion;
        if (version > seenVersion) { seenVersion = version; }
        var status = page.getElementById("status");
        if (status && status.textContent && statusLine && statusLine.className === "status") {
          statusLine.textContent = status.textContent;
        }
      })
      .catch(function () { say(w("stale"), true); })
      .then(function () {
        refreshing = false;
        waiting.forEach(function (resolve) { resolve(); });
        if (refreshAgain && !typingIn(document.activeElement)) { refreshAgain = false; fetchLive(); }
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

  /* A fold someone opened (the panel, "Scan something else", joining) stays open when the
     page catches up, and one they closed stays closed. */
  function openedFolds() {
    var kept = {};
    Array.prototype.forEach.call(live.querySelectorAll("details[class]"), function (fold) {
      kept[fold.className] = fold.open;
    });
    return kept;
  }

  function reopenFolds(kept) {
    Array.prototype.forEach.call(live.querySelectorAll("details[class]"), function (fold) {
      if (Object.prototype.hasOwnProperty.call(kept, fold.className)) { fold.open = kept[fold.className]; }
    });
  }

  /* The photo picker stays the same element: a phone's file chooser is open for seconds, and
     a photo chosen in a picker swapped out meanwhile would fire its change event outside the
     page, and the photo would be lost without a word. */
  function keepUpload(old) {
    var fresh = old && live.querySelector("input[data-upload]");
    if (fresh) {
      /* the same element, but for the step the page shows now */
      ["data-mode", "data-side"].forEach(function (name) { old.setAttribute(name, fresh.getAttribute(name) || ""); });
      fresh.parentNode.replaceChild(old, fresh);
    }
  }

  document.addEventListener("focusout", function () {
    if (refreshAgain) {
      window.setTimeout(function () {
        if (refreshAgain && !refreshing && !typingIn(document.activeElement)) { refreshAgain = false; fetchLive(); }
      }, 300);
    }
  });

  /* Buttons: data-post="URL" [data-body='JSON'] [data-confirm="question"] [data-then="/"];
     data-then="answer": the page the answer names (its "page"). */
  document.addEventListener("click", function (event) {
    var target = event.target;
    var button = target.closest ? target.closest("[data-post]") : null;
    if (button) {
      event.preventDefault();
      var question = button.getAttribute("data-confirm");
      if (question && !window.confirm(question)) { return; }
      var body = button.getAttribute("data-body");
      var then = button.getAttribute("data-then");
      var key = keyOf(button);
      var scanning = button.hasAttribute("data-scan-action");
      busyButton(button, true);
      say(w("working"));
      api("POST", button.getAttribute("data-post"), body ? JSON.parse(body) : {})
        .then(function (data) {
                settled(w("working"));
                busyButton(button, false);
                return done(data, then).then(function () {
                  if (scanning) { showScan(data, key); } else { outcome(key, tableSays() || w("saved"), false); }
                });
              },
              function (error) { say(error.message, true); busyButton(button, false); outcome(key, error.message, true); });
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
    var quick = target.closest ? target.closest("[data-quick]") : null;
    if (quick) { quickPick(quick); return; }
    if (target.closest && target.closest("#theme")) { toggleTheme(); return; }
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
      if (field.name && !(field.type === "radio" && !field.checked)) { body[field.name] = field.value; }
    });
    var button = form.querySelector("button[type=submit]");
    var key = keyOf(button);
    busyButton(button, true);
    if (document.activeElement) { document.activeElement.blur(); }
    api("POST", url, body)
      .then(function (data) {
              Array.prototype.forEach.call(form.elements, function (field) {
                if (field.name) { field.defaultValue = field.value; }  /* saved: the table's now */
              });
              say(w("saved"));
              busyButton(button, false);
              return done(data, form.getAttribute("data-then")).then(function () { outcome(key, w("saved"), false); });
            },
            function (error) { say(error.message, true); busyButton(button, false); outcome(key, error.message, true); });
  });

  /* A phone's photo, scored in the chosen mode for the chosen side. */
  document.addEventListener("change", function (event) {
    var input = event.target;
    if (!input.hasAttribute || !input.hasAttribute("data-upload") || !input.files.length) { return; }
    var file = input.files[0];
    var query = [];
    if (input.getAttribute("data-mode")) { query.push("mode=" + encodeURIComponent(input.getAttribute("data-mode"))); }
    if (input.getAttribute("data-side")) { query.push("side=" + encodeURIComponent(input.getAttribute("data-side"))); }
    var key = "#photo-button";
    input.blur();  /* nothing is typed here: the page may catch up at once */
    say(w("sending"));
    api("POST", "/api/scans/upload" + (query.length ? "?" + query.join("&") : ""), file,
        file.type || "application/octet-stream")
      .then(function (data) {
              settled(w("sending"));
              input.value = "";
              return done(data).then(function () { showScan(data, key); });
            },
            function (error) { input.value = ""; say(error.message, true); outcome(key, error.message, true); });
  });

  /* A file chosen on the decks' pages (a phone's photo of a deck laid out, one more photo of
     it, a deck saved to a file): sent to the address its input names (the deck form's photo
     with the form's name and layout), and the page the answer names opens. */
  document.addEventListener("change", function (event) {
    var input = event.target;
    if (!input.hasAttribute || !input.hasAttribute("data-send-file") || !input.files.length) { return; }
    var url = input.getAttribute("data-send-file");
    if (input.hasAttribute("data-with-form")) {
      var layout = input.form.querySelector("input[name=layout]:checked");
      url += "?name=" + encodeURIComponent(input.form.elements.name.value) +
        "&layout=" + encodeURIComponent(layout ? layout.value : "standard");
    }
    var file = input.files[0];
    input.blur();
    say(w("sending"));
    api("POST", url, file, file.type || "application/octet-stream")
      .then(function (data) { input.value = ""; window.location.href = data.page; },
            function (error) { input.value = ""; say(error.message, true); });
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
    if (target.indexOf("meld:") === 0) { return w("meld_n", { number: target.slice(5) }); }
    return { "new": w("new_meld"), "red_threes": w("to_red_threes"), "leftovers": w("to_left_over") }[target] || target;
  }

  /* A code's rank and colour: "10B" is 10 and B; "JK" and the special deck's cards have no
     colour. */
  function split(code) {
    var last = code.charAt(code.length - 1);
    if (code !== "JK" && (last === "R" || last === "B") && document.body.getAttribute("data-deck") === "standard") {
      return { rank: code.slice(0, -1), colour: last };
    }
    return { rank: code, colour: "" };
  }

  var SUITS = { R: "♥♦", B: "♠♣" };

  function quickButton(box, label, attrs, pressed) {
    var button = document.createElement("button");
    button.type = "button";
    button.textContent = label;
    Object.keys(attrs).forEach(function (name) { button.setAttribute(name, attrs[name]); });
    button.setAttribute("aria-pressed", pressed ? "true" : "false");
    box.appendChild(button);
  }

  /* Rank and colour buttons: one tap on the right rank (or colour) corrects the card, the
     other half of its code kept; adding a card takes its rank, then its colour. */
  function fillQuick(code) {
    var codes = (document.body.getAttribute("data-codes") || "").split(" ").filter(Boolean);
    var ranks = document.getElementById("picker-ranks");
    var colours = document.getElementById("picker-colours");
    ranks.innerHTML = "";
    colours.innerHTML = "";
    var current = code ? split(code) : { rank: "", colour: "" };
    var seen = {};
    codes.forEach(function (each) {
      var part = split(each);
      if (seen[part.rank]) { return; }
      seen[part.rank] = true;
      var label = part.rank === "JK" ? w("joker") : part.rank;
      quickButton(ranks, label, { "data-quick": "rank", "data-rank": part.rank, "class": "quick" }, part.rank === current.rank);
    });
    var standard = document.body.getAttribute("data-deck") === "standard";
    document.getElementById("picker-colours-label").hidden = !standard;
    colours.hidden = !standard;
    if (standard) {
      quickButton(colours, w("red"), { "data-quick": "colour", "data-colour": "R", "class": "quick red" }, current.colour === "R");
      quickButton(colours, w("black"), { "data-quick": "colour", "data-colour": "B", "class": "quick" }, current.colour === "B");
    }
  }

  function quickPick(button) {
    if (!pickerState) { return; }
    var codes = (document.body.getAttribute("data-codes") || "").split(" ");
    var which = button.getAttribute("data-quick");
    if (which === "rank") { pickerState.rank = button.getAttribute("data-rank"); }
    else { pickerState.colour = button.getAttribute("data-colour"); }
    Array.prototype.forEach.call(button.parentNode.children, function (each) {
      each.setAttribute("aria-pressed", each === button ? "true" : "false");
    });
    var rank = pickerState.rank;
    var code = rank && codes.indexOf(rank) >= 0 ? rank : (rank && pickerState.colour ? rank + pickerState.colour : "");
    if (!code || codes.indexOf(code) < 0) { return; }  /* adding: the colour is still to come */
    document.getElementById("picker-code").value = code;
    if (pickerState.card !== null && code === pickerState.code) { closePicker(); return; }
    picked(pickerState.card !== null ? "change" : "add");
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
                    add: add ? add.getAttribute("data-add") : null, rank: "", colour: "", code: null };
    var title = document.getElementById("picker-title");
    var reason = document.getElementById("picker-reason");
    if (card) {
      var code = card.getAttribute("data-code");
      var where = card.getAttribute("data-where") || "";
      var part = split(code);
      pickerState.code = code;
      pickerState.rank = part.rank;
      pickerState.colour = part.colour;
      title.textContent = w("card", { code: code + (part.colour ? " " + SUITS[part.colour] : "") });
      reason.textContent = card.getAttribute("data-reason") || "";
      select.value = code;
      (card.getAttribute("data-targets") || "").split(" ").forEach(function (target) {
        if (target && target !== where) { option(to, target, targetLabel(target)); }
      });
    } else {
      title.textContent = w("add_to", { place: targetLabel(pickerState.add) });
      reason.textContent = w("missed");
    }
    fillQuick(card ? pickerState.code : null);
    if (card) { closeUp(pickerState.scan, pickerState.card); } else { closeUp(null, null); }
    Array.prototype.forEach.call(picker.querySelectorAll("[data-for=card]"), function (row) { row.hidden = !card; });
    picker.querySelector("[data-for=check]").hidden = !(card && card.classList.contains("check"));
    picker.querySelector("[data-for=move]").hidden = !card || !to.options.length;
    picker.querySelector("[data-pick=change]").hidden = !card;
    picker.querySelector("[data-pick=add]").hidden = !!card;
    picker.hidden = false;
    var first = picker.querySelector("[data-quick][aria-pressed=true]") || picker.querySelector("[data-quick]");
    if (first) { first.focus(); } else { select.focus(); }
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
    var key = "#scan-" + pickerState.scan + " button.card[data-card='" + pickerState.card + "']";
    if (action === "add" || action === "delete" || pickerState.card === null) { key = "#scan-" + pickerState.scan + " .summary"; }
    closePicker();
    say(w("correcting"));
    api("POST", url, body).then(function () {
      say(w("corrected"));
      return refresh().then(function () { outcome(key, w("corrected"), false); });
    }, function (error) { say(error.message, true); });
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
      var players = [], seats = [];
      [1, 2].forEach(function (k) {
        var player = form.elements["player_" + n + "_" + k].value.trim();
        var seat = form.elements["seat_" + n + "_" + k];
        if (player) { players.push(player); seats.push(seat && seat.value ? Number(seat.value) : null); }
      });
      var side = { name: name, players: players };
      /* seats only where someone picked one: the table checks that every player has one */
      if (seats.some(function (seat) { return seat !== null; })) { side.seats = seats; }
      if (name) { sides.push(side); }
    }
    var rules = chosenRules(form);
    var body = { name: form.elements.name.value, sides: sides };
    if (!sides.length) { say(w("name_a_team"), true); return; }
    if (rules === "house") {
      if (rulesForm.problems) { say(rulesForm.problems, true); return; }
      body.rules_toml = form.elements.rules_toml.value;
    } else { body.rules = rules; }
    if (form.elements.deck && form.elements.deck.value) { body.deck = form.elements.deck.value; }
    api("POST", "/api/games", body).then(function () { window.location.href = "/"; },
                                          function (error) { say(error.message, true); });
  }

  /* House rules as a form: the fields of the chosen preset, each change checked by the
     engine as it is typed; the summary always describes the values in the form. */
  var rulesForm = { base: "pagat", values: {}, problems: "", timer: null };

  /* A kind of book, as the form names its count, in the page's words. */
  function bookWord(part) {
    var words = { clean: w("books_clean"), dirty: w("books_dirty"), wild: w("books_wild"), any: w("books_any") };
    return words[part] || part;
  }
  var formBox = document.getElementById("rules-form");

  function drawField(field, value) {
    var row = document.createElement("div");
    row.className = "rule-field";
    row.setAttribute("data-key", field.key);
    var id = "rule-" + field.key;
    function input(name, text, label, numeric) {
      var box = document.createElement("label");
      box.textContent = label;
      var entry = document.createElement("input");
      entry.name = name;
      entry.value = text;
      entry.autocomplete = "off";
      if (numeric) { entry.setAttribute("inputmode", "numeric"); entry.size = 6; }
      box.appendChild(entry);
      return box;
    }
    if (field.kind === "go_out_deals") {
      /* one row per deal, each its four book counts */
      var deals = document.createElement("fieldset");
      deals.className = "rule-group rule-deals";
      var title = document.createElement("legend");
      title.textContent = field.label;
      deals.appendChild(title);
      (value || []).forEach(function (books, index) {
        var line = document.createElement("div");
        line.className = "rule-deal";
        var name = document.createElement("span");
        name.className = "rule-deal-name";
        name.textContent = w("deal_row", { deal: index + 1 });
        line.appendChild(name);
        Object.keys(books).forEach(function (part) {
          var box = input("rule-" + field.key + "." + index + "." + part, books[part], bookWord(part), true);
          box.querySelector("input").setAttribute("aria-label", name.textContent + ": " + bookWord(part));
          line.appendChild(box);
        });
        deals.appendChild(line);
      });
      row.appendChild(deals);
    } else if (field.kind === "go_out" || field.kind === "card_values") {
      var group = document.createElement("fieldset");
      group.className = "rule-group";
      var legend = document.createElement("legend");
      legend.textContent = field.label;
      group.appendChild(legend);
      Object.keys(value).forEach(function (part) {
        /* a kind of book in the page's words; a card's code as it is */
        var named = field.kind === "go_out" ? bookWord(part) : part;
        group.appendChild(input("rule-" + field.key + "." + part, value[part], named, true));
      });
      row.appendChild(group);
    } else if (field.kind === "choice" || field.kind === "yes_no") {
      var label = document.createElement("label");
      label.setAttribute("for", id);
      label.textContent = field.label;
      var select = document.createElement("select");
      select.id = id;
      select.name = "rule-" + field.key;  /* never a name the game form uses */
      var words = field.yes_no || ["Yes", "No"];
      var choices = field.kind === "yes_no" ? [["true", words[0]], ["false", words[1]]] : field.choices;
      choices.forEach(function (choice) { option(select, choice[0], choice[1]); });
      select.value = String(value);
      row.appendChild(label);
      row.appendChild(select);
    } else {
      var plain = input("rule-" + field.key, value, field.label, field.kind !== "text");
      if (field.hint) {
        var hint = document.createElement("span");
        hint.className = "hint";
        hint.textContent = " (" + field.hint + ")";
        plain.insertBefore(hint, plain.querySelector("input"));
      }
      plain.querySelector("input").id = id;
      row.appendChild(plain);
    }
    var problem = document.createElement("p");
    problem.className = "field-problem";
    problem.id = "problem-" + field.key;
    problem.setAttribute("role", "alert");
    problem.hidden = true;
    row.appendChild(problem);
    formBox.appendChild(row);
  }

  function drawForm(form, values) {
    rulesForm.base = form.base;
    rulesForm.values = form.values;
    formBox.innerHTML = "";
    form.fields.forEach(function (field) { drawField(field, (values || form.values)[field.key]); });
    showSummary(form.summary, form.base);
  }

  function showSummary(lines, label) {
    var out = document.getElementById("rules-summary");
    if (out && lines) { out.textContent = (label ? label + ": " : "") + lines.join(" "); }
  }

  /* The fields that differ from the base preset, as the API wants them. */
  function changedRules() {
    var changed = {};
    Array.prototype.forEach.call(formBox.querySelectorAll(".rule-field"), function (row) {
      var key = row.getAttribute("data-key");
      var base = rulesForm.values[key];
      if (Array.isArray(base)) {  /* deal by deal: every row, when any differs */
        var rows = [];
        var changedRow = false;
        Array.prototype.forEach.call(row.querySelectorAll("input"), function (entry) {
          var at = entry.name.slice(("rule-" + key).length + 1).split(".");
          var index = Number(at[0]);
          rows[index] = rows[index] || {};
          rows[index][at[1]] = entry.value;
          if (!base[index] || String(base[index][at[1]]) !== entry.value) { changedRow = true; }
        });
        if (changedRow || rows.length !== base.length) { changed[key] = rows; }
        return;
      }
      if (base !== null && typeof base === "object") {
        var parts = {};
        var differs = false;
        Array.prototype.forEach.call(row.querySelectorAll("input"), function (entry) {
          var part = entry.name.slice(("rule-" + key).length + 1);
          parts[part] = entry.value;
          if (String(base[part]) !== entry.value) { differs = true; }
        });
        if (differs) { changed[key] = parts; }
        return;
      }
      var field = row.querySelector("input, select");
      var value = field.value;
      if (typeof base === "boolean") { if ((value === "true") !== base) { changed[key] = value === "true"; } return; }
      if (String(base) !== value) { changed[key] = value; }
    });
    return changed;
  }

  function checkForm() {
    var changed = changedRules();
    var form = document.getElementById("new-game");
    var house = form.querySelector("input[name=rules][value=house]");
    if (Object.keys(changed).length) { house.checked = true; }
    var told = document.getElementById("rules-result");
    if (told) { told.textContent = ""; }  /* it spoke of the text, not of the form now */
    Array.prototype.forEach.call(formBox.querySelectorAll(".field-problem"), function (p) { p.hidden = true; p.textContent = ""; });
    Array.prototype.forEach.call(formBox.querySelectorAll("[aria-invalid]"), function (f) { f.removeAttribute("aria-invalid"); });
    api("POST", "/api/rules/form", { base: rulesForm.base, changed: changed }).then(function (data) {
      if (!data.ok) {
        var problem = data.problems[0];
        rulesForm.problems = problem.message;
        var where = document.getElementById("problem-" + problem.key);
        if (where) {
          where.textContent = problem.message;
          where.hidden = false;
          if (where.scrollIntoView) { where.scrollIntoView({ block: "center" }); }
          var field = where.parentNode.querySelector("input, select");
          if (field) { field.setAttribute("aria-invalid", "true"); }
        }
        showSummary([problem.message], w("not_playable"));
        return;
      }
      rulesForm.problems = "";
      var named = Object.keys(changed).length ? w("based_on", { base: rulesForm.base }) : rulesForm.base;
      showSummary(data.summary, named);
      if (Object.keys(changed).length) { document.getElementById("rules_toml").value = data.toml; }
    }, function (error) { rulesForm.problems = error.message; showSummary([error.message]); });
  }

  function loadForm(spec, values) {
    return fetch("/api/rules/" + encodeURIComponent(spec) + "/form", { credentials: "same-origin" })
      .then(function (response) { return response.json(); })
      .then(function (form) { drawForm(form, values); });
  }

  if (formBox) {
    try { drawForm(JSON.parse(formBox.getAttribute("data-form"))); } catch (e) { /* drawn on the first choice */ }
    formBox.addEventListener("input", function (event) {
      /* books for every deal: each deal's row follows */
      var name = event.target.name || "";
      if (name.indexOf("rule-go_out.") === 0) {
        var part = name.slice("rule-go_out.".length);
        Array.prototype.forEach.call(formBox.querySelectorAll("input[name^='rule-go_out_deals.']"), function (entry) {
          if (entry.name.split(".")[2] === part) { entry.value = event.target.value; }
        });
      }
      window.clearTimeout(rulesForm.timer);
      rulesForm.timer = window.setTimeout(checkForm, 250);
    });
    formBox.addEventListener("change", function (event) {
      window.clearTimeout(rulesForm.timer);
      if (event.target.name === "rule-deck") {
        /* another deck is another game: its own preset's form (its cards, its rules) */
        var preset = event.target.value === "special" ? "handnfoot" : "pagat";
        var radio = document.querySelector("input[name=rules][value='" + preset + "']");
        if (radio) { radio.checked = true; }
        loadForm(preset);
        rulesForm.problems = "";
        return;
      }
      checkForm();
    });
    Array.prototype.forEach.call(document.querySelectorAll("input[name=rules]"), function (radio) {
      radio.addEventListener("change", function () {
        if (radio.value !== "house") { loadForm(radio.value); rulesForm.problems = ""; }
      });
    });
  }

  /* The text, pasted or typed: checked, and the form filled from it. */
  function checkRules() {
    var text = document.getElementById("rules_toml").value;
    var out = document.getElementById("rules-result");
    api("POST", "/api/rules/check", { rules_toml: text })
      .then(function (data) {
              out.textContent = w("playable", { name: data.name + " (" + data.rules.description + ")" });
              document.querySelector("input[name=rules][value=house]").checked = true;
              rulesForm.problems = "";
              if (formBox && data.base) {
                loadForm(data.base, data.form).then(function () { showSummary(data.summary, data.name); });
              }
            },
            function (error) { out.textContent = error.message; });
  }

  /* Every rule of the form as text, to keep or edit; the choice of rules stays as it is. */
  function loadPreset() {
    var form = document.getElementById("new-game");
    var rules = chosenRules(form);
    if (rules !== "house") {
      fetch("/api/rules/" + encodeURIComponent(rules) + "/toml", { credentials: "same-origin" })
        .then(function (response) { return response.text(); })
        .then(function (text) { document.getElementById("rules_toml").value = text; });
      return;
    }
    api("POST", "/api/rules/form", { base: rulesForm.base, changed: changedRules() }).then(function (data) {
      if (data.ok) { document.getElementById("rules_toml").value = data.toml; }
    });
  }

  /* The picture as the way to check: the photo with every card read outlined and named in
     letters a phone can read, drawn from the scan's reading as it is now (so corrections
     show at once). A card on the picture is tapped as its button in the list is. */
  var SVG = "http://www.w3.org/2000/svg";
  var LABEL_PX = 20;

  function pictureCards(figure) {
    try { return JSON.parse(figure.getAttribute("data-cards") || "[]"); } catch (e) { return []; }
  }

  /* How far each picture is zoomed (by scan), kept across the page's live refreshes. */
  var ZOOMS = [1, 1.5, 2, 3, 4];
  var zoomOf = {};
  var measure = document.createElement("canvas").getContext("2d");
  var LABEL_FONT = "system-ui, -apple-system, \"Segoe UI\", Roboto, Arial, sans-serif";

  function applyZoom(figure) {
    var scan = figure.getAttribute("data-scan");
    var level = zoomOf[scan] || 0;
    var view = figure.querySelector(".picture-view");
    var box = figure.querySelector(".picture-box");
    if (!view || !box || !view.clientWidth) { return; }  /* not laid out (yet): as it is */
    var img = figure.querySelector("img");
    box.style.width = level ? Math.round(view.clientWidth * ZOOMS[level]) + "px" : "";
    /* the view keeps the size of the whole picture: zooming in shows a part of it */
    var whole = img && img.naturalWidth ? view.clientWidth * img.naturalHeight / img.naturalWidth : 0;
    view.style.height = level && whole ? Math.round(Math.min(whole, window.innerHeight * 0.75)) + "px" : "";
    figure.classList.toggle("zoomed", level > 0);
    Array.prototype.forEach.call(figure.querySelectorAll("[data-pan], [data-zoom=whole]"), function (button) {
      button.hidden = level === 0;
    });
    var zoomIn = figure.querySelector("[data-zoom=in]"), zoomOut = figure.querySelector("[data-zoom=out]");
    if (zoomIn) { zoomIn.disabled = level === ZOOMS.length - 1; }
    if (zoomOut) { zoomOut.disabled = level === 0; }
  }

  /* Zoom about the middle of what is in view, or move the view by half of it. */
  function zoomPicture(figure, how) {
    var scan = figure.getAttribute("data-scan");
    var view = figure.querySelector(".picture-view");
    var level = zoomOf[scan] || 0;
    var before = ZOOMS[level];
    var middle = [view.scrollLeft + view.clientWidth / 2, view.scrollTop + view.clientHeight / 2];
    level = how === "in" ? Math.min(ZOOMS.length - 1, level + 1) : (how === "out" ? Math.max(0, level - 1) : 0);
    zoomOf[scan] = level;
    applyZoom(figure);
    drawPicture(figure);
    var ratio = ZOOMS[level] / before;
    view.scrollLeft = middle[0] * ratio - view.clientWidth / 2;
    view.scrollTop = middle[1] * ratio - view.clientHeight / 2;
  }

  function panPicture(figure, where) {
    var view = figure.querySelector(".picture-view");
    var dx = where === "left" ? -1 : (where === "right" ? 1 : 0);
    var dy = where === "up" ? -1 : (where === "down" ? 1 : 0);
    view.scrollLeft += dx * view.clientWidth / 2;
    view.scrollTop += dy * view.clientHeight / 2;
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("figure.picture [data-zoom], figure.picture [data-pan]") : null;
    if (!button) { return; }
    var figure = button.closest("figure.picture");
    if (button.hasAttribute("data-zoom")) { zoomPicture(figure, button.getAttribute("data-zoom")); }
    else { panPicture(figure, button.getAttribute("data-pan")); }
  });

  function overlaps(a, b) {
    return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
  }

  /* Where each card's name goes: on its corner index when that covers no other name, else
     the nearest free place above or below it (in rows a name high), then beside it. Names
     are placed top to bottom, left to right; a moved name gets a line to its card. */
  function layOutLabels(entries, fontPx, width, height) {
    var placed = [];
    var rowH = fontPx * 1.2;
    measure.font = "800 " + fontPx + "px " + LABEL_FONT;
    entries.sort(function (a, b) { return (a.anchor[1] - b.anchor[1]) || (a.anchor[0] - b.anchor[0]); });
    entries.forEach(function (entry) {
      var w = measure.measureText(entry.text).width + fontPx * 0.3, h = rowH;
      var home = { x: entry.anchor[0], y: entry.anchor[1] - h };
      var tries = [[0, 0]];
      for (var step = 1; step <= 24; step += 1) {
        tries.push([0, -step * h], [0, step * h]);
        if (step <= 6) { tries.push([step * w * 0.6, 0], [-step * w * 0.6, 0]); }
      }
      var chosen = null;
      for (var i = 0; i < tries.length && !chosen; i += 1) {
        var rect = {
          x: Math.max(0, Math.min(width - w, home.x + tries[i][0])),
          y: Math.max(0, Math.min(height - h, home.y + tries[i][1])),
          w: w, h: h
        };
        if (!placed.some(function (other) { return overlaps(rect, other); })) { chosen = rect; }
      }
      if (!chosen) { chosen = { x: Math.max(0, Math.min(width - w, home.x)), y: Math.max(0, home.y), w: w, h: h }; }
      placed.push(chosen);
      entry.rect = chosen;
      entry.moved = Math.abs(chosen.x - home.x) > h * 0.5 || Math.abs(chosen.y - home.y) > h * 0.5;
    });
    return entries;
  }

  function drawPicture(figure) {
    var img = figure.querySelector("img");
    if (!img || !img.naturalWidth || !img.clientWidth) { return; }
    applyZoom(figure);
    if (!img.clientWidth) { return; }
    var old = figure.querySelector("svg.marks");
    if (old) { old.parentNode.removeChild(old); }
    var scale = img.naturalWidth / img.clientWidth;  /* picture px per screen px */
    var fontPx = LABEL_PX * scale;
    var svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("class", "marks");
    svg.setAttribute("viewBox", "0 0 " + img.naturalWidth + " " + img.naturalHeight);
    svg.setAttribute("role", "group");
    svg.setAttribute("aria-label", w("picture_cards"));
    var scan = figure.getAttribute("data-scan");
    var list = document.getElementById("scan-" + scan);
    var outlines = document.createElementNS(SVG, "g"), names = document.createElementNS(SVG, "g");
    var entries = pictureCards(figure).map(function (card) {
      var box = card.box || [card.polygon[0][0], card.polygon[0][1], card.polygon[0][0], card.polygon[0][1]];
      return {
        card: card,
        anchor: [box[0], box[1]],
        middle: [(box[0] + box[2]) / 2, (box[1] + box[3]) / 2],
        text: card.code + (card.check ? "?" : "") + (card.corrected ? " ✎" : "")
      };
    });
    layOutLabels(entries, fontPx, img.naturalWidth, img.naturalHeight).forEach(function (entry) {
      var card = entry.card;
      var button = list ? list.querySelector("button.card[data-card='" + card.id + "']") : null;
      var state = card.check ? "check" : (card.corrected ? "corrected" : (card.counted ? "ok" : "bad"));
      function mark(kind) {
        var group = document.createElementNS(SVG, "g");
        group.setAttribute("class", kind + " " + state);
        group.setAttribute("data-scan", scan);
        group.setAttribute("data-card", String(card.id));
        group.setAttribute("data-code", card.code);
        group.setAttribute("data-where", card.where);
        group.setAttribute("data-targets", button ? button.getAttribute("data-targets") : "");
        group.setAttribute("data-reason", button ? button.getAttribute("data-reason") : "");
        return group;
      }
      var outline = document.createElementNS(SVG, "polygon");
      outline.setAttribute("points", card.polygon.map(function (p) { return p[0] + "," + p[1]; }).join(" "));
      outline.setAttribute("stroke-width", String(3 * scale));
      var shape = mark("outline");
      shape.appendChild(outline);
      outlines.appendChild(shape);
      /* the name, its line and a copy of the outline's tap target: one mark per card */
      var group = mark("mark");
      group.setAttribute("tabindex", "0");
      group.setAttribute("role", "button");
      group.setAttribute("aria-label", card.code + (card.check ? w("to_check") : "") + w("tap_to_change"));
      var rect = entry.rect;
      if (entry.moved) {
        var cx = Math.max(rect.x, Math.min(rect.x + rect.w, entry.middle[0]));
        var cy = Math.max(rect.y, Math.min(rect.y + rect.h, entry.middle[1]));
        var lead = document.createElementNS(SVG, "line");
        lead.setAttribute("class", "leader");
        lead.setAttribute("x1", String(cx));
        lead.setAttribute("y1", String(cy));
        lead.setAttribute("x2", String(entry.middle[0]));
        lead.setAttribute("y2", String(entry.middle[1]));
        lead.setAttribute("stroke-width", String(2 * scale));
        group.appendChild(lead);
      }
      var back = document.createElementNS(SVG, "rect");
      back.setAttribute("class", "label-back");
      back.setAttribute("x", String(rect.x));
      back.setAttribute("y", String(rect.y));
      back.setAttribute("width", String(rect.w));
      back.setAttribute("height", String(rect.h));
      back.setAttribute("rx", String(3 * scale));
      group.appendChild(back);
      var label = document.createElementNS(SVG, "text");
      label.setAttribute("x", String(rect.x + fontPx * 0.15));
      label.setAttribute("y", String(rect.y + fontPx * 0.95));
      label.setAttribute("font-size", String(fontPx));
      label.setAttribute("stroke-width", String(4 * scale));
      label.textContent = entry.text;
      group.appendChild(label);
      names.appendChild(group);
    });
    svg.appendChild(outlines);
    svg.appendChild(names);  /* names above every outline, so none is hidden by a card */
    figure.querySelector(".picture-box").appendChild(svg);
  }

  function drawPictures() {
    Array.prototype.forEach.call(document.querySelectorAll("figure.picture"), function (figure) {
      var img = figure.querySelector("img");
      if (img && !img.complete) { img.addEventListener("load", function () { drawPicture(figure); }); return; }
      drawPicture(figure);
    });
  }
  drawPictures();
  window.addEventListener("resize", drawPictures);

  /* A close-up of one card, cut from the picture, beside the picker's buttons. */
  function closeUp(scan, cardId) {
    var box = document.getElementById("picker-close-up");
    if (!box) { return; }
    box.innerHTML = "";
    box.hidden = true;
    var figure = document.querySelector("figure.picture[data-scan='" + scan + "']");
    var img = figure && figure.querySelector("img");
    if (!img || !img.naturalWidth) { return; }
    var card = pictureCards(figure).filter(function (each) { return each.id === cardId; })[0];
    if (!card) { return; }
    var xs = card.polygon.map(function (p) { return p[0]; });
    var ys = card.polygon.map(function (p) { return p[1]; });
    var left = Math.max(0, Math.min.apply(null, xs)), top = Math.max(0, Math.min.apply(null, ys));
    var width = Math.min(img.naturalWidth, Math.max.apply(null, xs)) - left;
    var height = Math.min(img.naturalHeight, Math.max.apply(null, ys)) - top;
    if (width < 2 || height < 2) { return; }
    var canvas = document.createElement("canvas");
    var shown = Math.min(240, Math.round(240 * width / height));
    canvas.width = shown;
    canvas.height = Math.round(shown * height / width);
    canvas.setAttribute("role", "img");
    canvas.setAttribute("aria-label", "The card as the camera saw it");
    try {
      canvas.getContext("2d").drawImage(img, left, top, width, height, 0, 0, canvas.width, canvas.height);
    } catch (e) { return; }
    box.appendChild(canvas);
    box.hidden = false;
  }

  /* Dark or light: the phone's own setting until someone picks one here (kept in a cookie,
     so the page comes from the table already in the picked colours). */
  function currentTheme() {
    var picked = document.documentElement.getAttribute("data-theme");
    if (picked) { return picked; }
    return window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  }

  function showTheme() {
    var button = document.getElementById("theme");
    if (!button) { return; }
    var dark = currentTheme() === "dark";
    button.setAttribute("aria-pressed", dark ? "true" : "false");
    button.textContent = button.getAttribute("data-dark");
  }

  function toggleTheme() {
    var next = currentTheme() === "dark" ? "light" : "dark";
    document.documentElement.setAttribute("data-theme", next);
    document.cookie = "handfoot-theme=" + next + "; path=/; max-age=31536000; SameSite=Lax";
    showTheme();
  }
  showTheme();

  var language = document.getElementById("language");
  if (language) {
    language.addEventListener("change", function () {
      document.cookie = "handfoot-lang=" + language.value + "; path=/; max-age=31536000; SameSite=Lax";
      window.location.reload();
    });
  }

  /* The simulated panel and the other scans are folded away on a phone, open on a wide screen. */
  function openFolds() {
    if (window.innerWidth < 700) { return; }
    Array.prototype.forEach.call(document.querySelectorAll("details.panel-fold"), function (fold) { fold.open = true; });
  }
  openFolds();

  /* Keep the screen awake where the browser allows it (most do only over https). */
  var awake = null;
  function stayAwake() {
    if (!navigator.wakeLock || document.visibilityState !== "visible") { return; }
    navigator.wakeLock.request("screen").then(function (lock) { awake = lock; }, function () { awake = null; });
  }
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") { stayAwake(); refresh(); }
  });
  stayAwake();

  if (navigator.serviceWorker && window.isSecureContext) {
    navigator.serviceWorker.register("/sw.js").catch(function () { /* the page works without it */ });
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
