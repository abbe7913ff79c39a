"""ISO 3166-1 alpha-2 country codes: English short names, and which codes are valid.

* :func:`country_name` — a display name, for country tables (MacMahon's ``<Country><Name>``).
  Lower-case codes, as MacMahon writes them; ``uk`` is kept beside ``gb`` because
  MacMahon's own table has both (spec macmahon.md §B.12).
* :func:`is_country_code` — whether a two-letter code is a country (the EGD keys players by
  country, spec ``egd.md`` §3.1 item 5): the 249 assigned codes, plus ``UK`` (reserved by
  ISO for the United Kingdom; the EGD and OpenGotha files use it beside ``GB``) and ``XK``
  (Kosovo, user-assigned but in general use). ``XX`` is the placeholder OpenGotha and the
  EGD write for an unknown country (:data:`UNKNOWN_COUNTRY`); it is not a country.

>>> country_name("de"), country_name("UK"), country_name("zz")
('Germany', 'United Kingdom', 'ZZ')
>>> is_country_code("fr"), is_country_code("UK"), is_country_code("SW"), is_country_code("XX")
(True, True, False, False)
"""

from __future__ import annotations

from typing import Final

__all__ = ["COUNTRY_CODES", "COUNTRY_NAMES", "UNKNOWN_COUNTRY", "country_name", "is_country_code"]

_TABLE: Final = """\
ad Andorra|ae United Arab Emirates|af Afghanistan|ag Antigua and Barbuda|ai Anguilla|al Albania|am Armenia|
ao Angola|aq Antarctica|ar Argentina|as American Samoa|at Austria|au Australia|aw Aruba|ax Åland Islands|
az Azerbaijan|ba Bosnia and Herzegovina|bb Barbados|bd Bangladesh|be Belgium|bf Burkina Faso|bg Bulgaria|
bh Bahrain|bi Burundi|bj Benin|bl Saint Barthélemy|bm Bermuda|bn Brunei Darussalam|bo Bolivia|
bq Bonaire, Sint Eustatius and Saba|br Brazil|bs Bahamas|bt Bhutan|bv Bouvet Island|bw Botswana|by Belarus|
bz Belize|ca Canada|cc Cocos (Keeling) Islands|cd Congo, Democratic Republic|cf Central African Republic|
cg Congo|ch Switzerland|ci Côte d'Ivoire|ck Cook Islands|cl Chile|cm Cameroon|cn China|co Colombia|
cr Costa Rica|cu Cuba|cv Cabo Verde|cw Curaçao|cx Christmas Island|cy Cyprus|cz Czechia|de Germany|
dj Djibouti|dk Denmark|dm Dominica|do Dominican Republic|dz Algeria|ec Ecuador|ee Estonia|eg Egypt|
eh Western Sahara|er Eritrea|es Spain|et Ethiopia|fi Finland|fj Fiji|fk Falkland Islands|fm Micronesia|
fo Faroe Islands|fr France|ga Gabon|gb United Kingdom|gd Grenada|ge Georgia|gf French Guiana|gg Guernsey|
gh Ghana|gi Gibraltar|gl Greenland|gm Gambia|gn Guinea|gp Guadeloupe|gq Equatorial Guinea|gr Greece|
gs South Georgia and the South Sandwich Islands|gt Guatemala|gu Guam|gw Guinea-Bissau|gy Guyana|
hk Hong Kong|hm Heard Island and McDonald Islands|hn Honduras|hr Croatia|ht Haiti|hu Hungary|id Indonesia|
ie Ireland|il Israel|im Isle of Man|in India|io British Indian Ocean Territory|iq Iraq|ir Iran|is Iceland|
it Italy|je Jersey|jm Jamaica|jo Jordan|jp Japan|ke Kenya|kg Kyrgyzstan|kh Cambodia|ki Kiribati|km Comoros|
kn Saint Kitts and Nevis|kp Korea, Democratic People's Republic|kr Korea, Republic|kw Kuwait|
ky Cayman Islands|kz Kazakhstan|la Lao People's Democratic Republic|lb Lebanon|lc Saint Lucia|
li Liechtenstein|lk Sri Lanka|lr Liberia|ls Lesotho|lt Lithuania|lu Luxembourg|lv Latvia|ly Libya|
ma Morocco|mc Monaco|md Moldova|me Montenegro|mf Saint Martin|mg Madagascar|mh Marshall Islands|
mk North Macedonia|ml Mali|mm Myanmar|mn Mongolia|mo Macao|mp Northern Mariana Islands|mq Martinique|
mr Mauritania|ms Montserrat|mt Malta|mu Mauritius|mv Maldives|mw Malawi|mx Mexico|my Malaysia|
mz Mozambique|na Namibia|nc New Caledonia|ne Niger|nf Norfolk Island|ng Nigeria|ni Nicaragua|
nl Netherlands|no Norway|np Nepal|nr Nauru|nu Niue|nz New Zealand|om Oman|pa Panama|pe Peru|
pf French Polynesia|pg Papua New Guinea|ph Philippines|pk Pakistan|pl Poland|pm Saint Pierre and Miquelon|
pn Pitcairn|pr Puerto Rico|ps Palestine|pt Portugal|pw Palau|py Paraguay|qa Qatar|re Réunion|ro Romania|
rs Serbia|ru Russia|rw Rwanda|sa Saudi Arabia|sb Solomon Islands|sc Seychelles|sd Sudan|se Sweden|
sg Singapore|sh Saint Helena, Ascension and Tristan da Cunha|si Slovenia|sj Svalbard and Jan Mayen|
sk Slovakia|sl Sierra Leone|sm San Marino|sn Senegal|so Somalia|sr Suriname|ss South Sudan|
st Sao Tome and Principe|sv El Salvador|sx Sint Maarten|sy Syria|sz Eswatini|tc Turks and Caicos Islands|
td Chad|tf French Southern Territories|tg Togo|th Thailand|tj Tajikistan|tk Tokelau|tl Timor-Leste|
tm Turkmenistan|tn Tunisia|to Tonga|tr Türkiye|tt Trinidad and Tobago|tv Tuvalu|tw Taiwan|tz Tanzania|
ua Ukraine|ug Uganda|uk United Kingdom|um United States Minor Outlying Islands|us United States|uy Uruguay|
uz Uzbekistan|va Holy See|vc Saint Vincent and the Grenadines|ve Venezuela|vg Virgin Islands (British)|
vi Virgin Islands (U.S.)|vn Viet Nam|vu Vanuatu|wf Wallis and Futuna|ws Samoa|ye Yemen|yt Mayotte|
za South Africa|zm Zambia|zw Zimbabwe"""

COUNTRY_NAMES: Final[dict[str, str]] = {
    item.strip()[:2]: item.strip()[3:] for item in _TABLE.replace("\n", "").split("|") if item.strip()
}


def country_name(code: str) -> str:
    """The English name of a country code (any case); the upper-cased code when unknown."""
    return COUNTRY_NAMES.get(code.strip().lower(), code.strip().upper())


COUNTRY_CODES: Final[frozenset[str]] = frozenset(code.upper() for code in COUNTRY_NAMES) | {"XK"}
"""Upper-case codes accepted as countries."""

UNKNOWN_COUNTRY: Final = "XX"
"""The placeholder for an unknown country (OpenGotha, EGD files)."""


def is_country_code(text: str) -> bool:
    """True for an assigned two-letter code, in any case (``fr`` and ``FR`` alike)."""
    return text.strip().upper() in COUNTRY_CODES
