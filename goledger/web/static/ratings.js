// goledger desk: a click on a rating-list match fills the registration form (issue 34).
(function () {
  var FIELDS = {surname: "surname", first_name: "firstName", country: "country", club: "club",
                rank: "rank", egd_pin: "pin", rating: "rating"};
  document.addEventListener("click", function (e) {
    var pick = e.target.closest ? e.target.closest(".rating-pick") : null;
    var form = document.getElementById("register-form");
    if (!pick || !form) { return; }
    Object.keys(FIELDS).forEach(function (name) {
      var input = form.querySelector("[name=" + name + "]");
      if (input) { input.value = pick.dataset[FIELDS[name]] || ""; }
    });
    form.setAttribute("data-picked", pick.dataset.pin);
    var button = form.querySelector("button[type=submit]");
    if (button) { button.focus(); }
  });
})();
