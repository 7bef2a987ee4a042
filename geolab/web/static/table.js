// The card table: pick cards (click, tap, or Space/Enter on a focused card) and an option,
// then Confirm. Outside a race the page knows the legal moves (the scene's), so Confirm is
// enabled only for a selection that is one of them and posts its index. At a race it knows
// none: Confirm posts the selected cards in the claim's shape and the server judges them, and
// the page asks the server only whether the race is still open.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("scene-data").textContent);
  var form = document.getElementById("moves"), confirm = document.getElementById("confirm");
  var status = document.getElementById("status"), optionsBox = document.getElementById("options");
  var table = document.getElementById("table");
  var picked = [], chosen = [];  // card ids in the order picked; the option's parts chosen so far
  var cards = Array.prototype.slice.call(document.querySelectorAll("button.card"));
  var race = data.race;

  function same(a, b, ordered) {
    if (a.length !== b.length) return false;
    if (!ordered) { a = a.slice().sort(); b = b.slice().sort(); }
    for (var i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }
  function hidden(name, value) {
    var input = form.querySelector('input[type=hidden][name="' + name + '"]');
    if (!input) { input = document.createElement("input"); input.type = "hidden"; input.name = name; form.appendChild(input); }
    input.value = value;
  }
  function withCards() {  // the legal moves whose cards are the selection
    return data.moves.filter(function (m) { return same(m[1], picked, data.ordered); });
  }
  function matching() {  // ... and whose option starts with the parts chosen
    return withCards().filter(function (m) {
      for (var i = 0; i < chosen.length; i++) if (m[2][i] !== chosen[i]) return false;
      return true;
    });
  }

  function drawOptions() {
    optionsBox.textContent = "";
    if (race) {
      race.options.forEach(function (o, i) {
        var label = document.createElement("label"), input = document.createElement("input");
        input.type = "radio"; input.name = "option"; input.value = o[1]; input.checked = i === 0;
        label.appendChild(input); label.appendChild(document.createTextNode(" " + o[0]));
        label.className = "choice"; optionsBox.appendChild(label);
      });
      return;
    }
    var moves = withCards();
    for (var part = 0; part < data.options.length; part++) {
      var values = [];
      moves.forEach(function (m) {
        var ok = m[2].length > part;
        for (var i = 0; ok && i < part; i++) ok = m[2][i] === chosen[i];
        if (ok && values.indexOf(m[2][part]) < 0) values.push(m[2][part]);
      });
      if (!values.length) break;
      var group = document.createElement("div");
      group.className = "option-group"; group.setAttribute("role", "group");
      group.setAttribute("aria-label", data.options[part]);
      var head = document.createElement("span"); head.className = "option-name"; head.textContent = data.options[part];
      group.appendChild(head);
      if (values.length > 12) {  // a long list (a state, a capital): a drop-down
        var select = document.createElement("select");
        select.setAttribute("aria-label", data.options[part]); select.dataset.part = part;
        var none = document.createElement("option"); none.value = ""; none.textContent = "choose " + data.options[part];
        select.appendChild(none);
        values.forEach(function (v) {
          var o = document.createElement("option"); o.value = v; o.textContent = v;
          o.selected = chosen[part] === v; select.appendChild(o);
        });
        select.addEventListener("change", function (e) {
          var p = +e.target.dataset.part; chosen = chosen.slice(0, p);
          if (e.target.value) chosen[p] = e.target.value;
          update();
        });
        group.appendChild(select);
      } else {
        values.forEach(function (v) {
          var b = document.createElement("button");
          b.type = "button"; b.className = "option"; b.textContent = v; b.dataset.part = part;
          b.setAttribute("aria-pressed", chosen[part] === v ? "true" : "false");
          b.addEventListener("click", function () {
            var p = +this.dataset.part;
            chosen = chosen.slice(0, p);
            if (this.getAttribute("aria-pressed") !== "true") chosen[p] = this.textContent;
            update();
          });
          group.appendChild(b);
        });
      }
      optionsBox.appendChild(group);
      if (chosen[part] === undefined || values.indexOf(chosen[part]) < 0) { chosen = chosen.slice(0, part); break; }
    }
  }

  function update() {
    cards.forEach(function (c) {
      var at = picked.indexOf(c.dataset.id);
      c.setAttribute("aria-pressed", at >= 0 ? "true" : "false");
      var order = c.querySelector(".order");
      if (order) order.textContent = at >= 0 && (race || data.ordered) ? String(at + 1) : "";
    });
    drawOptions();
    if (table && chosen.length && /^(size|statehood|population)$/.test(chosen[0])) {
      table.dataset.category = ["size", "statehood", "population"].indexOf(chosen[0]);
    } else if (table && data.category === null) {
      delete table.dataset.category;
    }
    if (race) {
      var need = race.shape.reduce(function (a, b) { return a + b; }, 0);
      confirm.disabled = picked.length !== need;
      status.textContent = picked.length + " of " + need + " cards selected" +
        (race.shape.length > 1 ? " (groups of " + race.shape.join(" and ") + ", in the order you pick)" : "");
      return;
    }
    var full = matching().filter(function (m) { return m[2].length === chosen.length; });
    confirm.disabled = full.length !== 1;
    if (full.length === 1) {
      confirm.dataset.index = full[0][0];
      status.textContent = "";
    } else if (!withCards().length) {
      var sizes = [];
      data.moves.forEach(function (m) { if (sizes.indexOf(m[1].length) < 0) sizes.push(m[1].length); });
      status.textContent = picked.length ? "Not a move: a move here takes " + sizes.join(" or ") + " card" +
        (sizes.length === 1 && sizes[0] === 1 ? "" : "s") : "";
    } else {
      status.textContent = "Choose " + data.options[chosen.length] + ".";
    }
  }

  function toggle(card) {
    var id = card.dataset.id, at = picked.indexOf(id);
    if (at >= 0) picked.splice(at, 1); else picked.push(id);
    chosen = [];
    update();
  }
  cards.forEach(function (c) { c.addEventListener("click", function () { toggle(c); }); });

  document.getElementById("clear").addEventListener("click", function () { picked = []; chosen = []; update(); });
  form.addEventListener("submit", function (e) {
    var pass = e.submitter && e.submitter.id === "pass";
    if (pass) return;
    if (confirm.disabled) { e.preventDefault(); return; }
    if (race) {
      var groups = [], at = 0;
      race.shape.forEach(function (n) { groups.push(picked.slice(at, at + n).join(",")); at += n; });
      hidden("cards", groups.join("|"));
    } else {
      hidden("index", confirm.dataset.index);
    }
  });

  if (data.hint !== null && data.hint !== undefined) {  // the hint's move, selected for the person to confirm
    data.moves.forEach(function (m) {
      if (m[0] === data.hint) { picked = m[1].slice(); chosen = m[2].slice(); }
    });
  }
  update();

  if (race) {  // the person's own clock, and one question to the server: is the race still open?
    var start = Date.now() - race.elapsed * 1000, clock = document.getElementById("clock"), sent = false;
    setInterval(function () { clock.textContent = ((Date.now() - start) / 1000).toFixed(1); }, 100);
    var ask = function () {
      if (sent) return;
      fetch(data.poll, {cache: "no-store"}).then(function (r) { return r.json(); }).then(function (answer) {
        if (answer.race === "over" && !sent) {  // a rival has claimed (or the game moved on): the server judges
          sent = true; document.getElementById("pass").click();
        } else setTimeout(ask, 700);
      }).catch(function () { setTimeout(ask, 2000); });
    };
    setTimeout(ask, 700);
  }
})();
