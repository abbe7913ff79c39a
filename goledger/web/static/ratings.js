// goledger desk: a click on a rating-list match fills the registration form (issue 34).
// The names the director typed keep their accents (issue 43): the EGD list writes names in
// ASCII, so a typed name (in the form, or in the search box) that folds to the list's
// spelling wins over it ("Çelebican" stays "Çelebican", never "Celebican").
(function () {
  var FIELDS = {surname: "surname", first_name: "firstName", country: "country", club: "club",
                rank: "rank", egd_pin: "pin", rating: "rating"};
  var UNDECOMPOSED = {"ı": "i", "ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "ß": "ss", "đ": "d", "Đ": "D",
                      "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "þ": "th", "Þ": "Th", "ð": "d", "Ð": "D",
                      "ħ": "h", "Ħ": "H"};

  // The name folded as goledger.ratings.names folds it: ASCII letters, lower case, words.
  function fold(text) {
    return text.replace(/[ıłŁøØßđĐæÆœŒþÞðÐħĦ]/g, function (c) { return UNDECOMPOSED[c]; })
      .normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
      .replace(/[^a-z0-9]+/g, " ").trim();
  }

  // The typed spelling of the list's ``listed`` name: the form's own field when it folds to
  // it, else a run of the search box's words that does; the list's spelling otherwise.
  function typed(listed, field, query) {
    var target = fold(listed);
    if (!target) { return listed; }
    if (field && fold(field) === target) { return field.trim(); }
    var words = query.split(/[\s,]+/).filter(Boolean);
    for (var start = 0; start < words.length; start++) {
      for (var end = start + 1; end <= words.length; end++) {
        var run = words.slice(start, end).join(" ");
        if (fold(run) === target) { return run; }
      }
    }
    return listed;
  }

  document.addEventListener("click", function (e) {
    var pick = e.target.closest ? e.target.closest(".rating-pick") : null;
    var form = document.getElementById("register-form");
    if (!pick || !form) { return; }
    var box = document.getElementById("ratings-q");
    var query = box ? box.value : "";
    Object.keys(FIELDS).forEach(function (name) {
      var input = form.querySelector("[name=" + name + "]");
      if (!input) { return; }
      var value = pick.dataset[FIELDS[name]] || "";
      if (name === "surname" || name === "first_name") { value = typed(value, input.value, query); }
      input.value = value;
    });
    form.setAttribute("data-picked", pick.dataset.pin);
    var button = form.querySelector("button[type=submit]");
    if (button) { button.focus(); }
  });
})();
