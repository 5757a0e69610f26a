#include "corpus.h"

namespace basalt::fts5test {

std::string Utf8(uint32_t c) {
  std::string o;
  if (c < 0x80) {
    o += static_cast<char>(c);
  } else if (c < 0x800) {
    o += static_cast<char>(0xC0 | (c >> 6));
    o += static_cast<char>(0x80 | (c & 63));
  } else if (c < 0x10000) {
    o += static_cast<char>(0xE0 | (c >> 12));
    o += static_cast<char>(0x80 | ((c >> 6) & 63));
    o += static_cast<char>(0x80 | (c & 63));
  } else {
    o += static_cast<char>(0xF0 | (c >> 18));
    o += static_cast<char>(0x80 | ((c >> 12) & 63));
    o += static_cast<char>(0x80 | ((c >> 6) & 63));
    o += static_cast<char>(0x80 | (c & 63));
  }
  return o;
}

const std::vector<std::string>& Vocabulary() {
  static const std::vector<std::string> kWords = {"the",
                                                  "of",
                                                  "and",
                                                  "database",
                                                  "Databases",
                                                  "SQLite",
                                                  "sqlite",
                                                  "engine",
                                                  "index",
                                                  "indexing",
                                                  "indexed",
                                                  "query",
                                                  "queries",
                                                  "querying",
                                                  "relational",
                                                  "connection",
                                                  "connected",
                                                  "running",
                                                  "runs",
                                                  "ran",
                                                  "happiness",
                                                  "happy",
                                                  "generalization",
                                                  "generalizations",
                                                  "conditional",
                                                  "rational",
                                                  "hopping",
                                                  "hoped",
                                                  "agreed",
                                                  "feed",
                                                  "caresses",
                                                  "ponies",
                                                  "cats",
                                                  "motoring",
                                                  "sing",
                                                  "controlling",
                                                  "electrical",
                                                  "formative",
                                                  "adjustable",
                                                  "effective",
                                                  "probate",
                                                  "rate",
                                                  "cease",
                                                  "café",
                                                  "CAFÉ",
                                                  "naïve",
                                                  "Ærøskøbing",
                                                  "façade",
                                                  "résumé",
                                                  "über",
                                                  "Straße",
                                                  "ÉCOLE",
                                                  "école",
                                                  "crème",
                                                  "brûlée",
                                                  "Øresund",
                                                  "İstanbul",
                                                  "ǅemal",
                                                  "ﬁnance",
                                                  "Ǖber",
                                                  "ỗn",
                                                  "Ḁx",
                                                  "e\xcc\x81t\xc3\xa9",
                                                  "a\xcc\x80\xcc\x81"
                                                  "b",
                                                  "日本語",
                                                  "中文",
                                                  "東京",
                                                  "한국어",
                                                  "Ελληνικά",
                                                  "ΣΟΦΊΑ",
                                                  "Москва",
                                                  "ПРИВЕТ",
                                                  "שלום",
                                                  "مرحبا",
                                                  "हिन्दी",
                                                  "ไทย",
                                                  "😀",
                                                  "🎉party",
                                                  "x😀y",
                                                  "👍🏽",
                                                  "Ｆｕｌｌ",
                                                  "①②",
                                                  "Ⅻ",
                                                  "x²",
                                                  "½",
                                                  "1984",
                                                  "3.14",
                                                  "v2",
                                                  "snake_case",
                                                  "kebab-case",
                                                  "e-mail",
                                                  "don't",
                                                  "C++",
                                                  "a.b.c",
                                                  "tab\there",
                                                  "line\nbreak",
                                                  "𐐀𐐨",
                                                  "ꙮ",
                                                  "\xef\xbf\xbd",
                                                  "zzz",
                                                  "alpha",
                                                  "beta",
                                                  "gamma",
                                                  "delta",
                                                  "epsilon",
                                                  "zeta",
                                                  "eta",
                                                  "theta",
                                                  "iota",
                                                  "kappa"};
  return kWords;
}

std::string Document(int i, bool malformed_utf8) {
  std::mt19937 rng(static_cast<uint32_t>(i) * 7919u + 17u);
  const auto& words = Vocabulary();
  // Mostly short documents, some of a few hundred words.
  int n = 1 + static_cast<int>(rng() % 24);
  if (i % 7 == 3) n = 120 + static_cast<int>(rng() % 400);
  static const char* kSeps[] = {" ",  " ",  " ", " ",  ", ", ". ", ": ", " - ", "  ",
                                "\t", "\n", ".", "; ", "! ", "? ", " (", ") ",  "'"};
  std::string doc;
  for (int k = 0; k < n; ++k) {
    if (k > 0) doc += kSeps[rng() % (sizeof(kSeps) / sizeof(kSeps[0]))];
    // Zipf-like: low indexes more often, so phrases and repeats happen.
    size_t w = rng() % words.size();
    if (rng() % 2) w = w % 12;
    doc += words[w];
  }
  if (malformed_utf8 && i % 5 == 1) {
    static const char* kBad[] = {"\x80",         "\xc3",         "\xe2\x82", "\xf8\x88\x80\x80\x80",
                                 "\xed\xa0\x80", "\xef\xbf\xbe", "\xc0\x80", "\xfe"};
    doc.insert(rng() % (doc.size() + 1), kBad[rng() % 8]);
  }
  return doc;
}

std::string StemmerWords(std::mt19937* rng) {
  static const char* kStems[] = {
      "",         "a",       "e",     "y",      "s",      "x",       "at",     "bl",      "iz",
      "hop",      "run",     "gener", "condit", "rat",    "fe",      "agr",    "motor",   "sing",
      "control",  "electr",  "form",  "adjust", "effect", "prob",    "ceas",   "sky",     "cr",
      "fl",       "happ",    "tann",  "fall",   "hiss",   "fizz",    "fail",   "fil",     "troubl",
      "siz",      "plaster", "bor",   "tap",    "ag",     "oper",    "relat",  "valen",   "hesit",
      "digit",    "conform", "radic", "differ", "analog", "vietnam", "predic", "sensibl", "formal",
      "sensitiv", "tri",     "ee",    "yy",     "ss",     "oo",      "aa",     "caress",  "poni",
      "ti",       "cat",     "feed",  "mating", "meet",   "Zo",      "Ã©t",    "1",       "a1b",
      "ye",       "ay",      "boy",   "toy"};
  static const char* kSuffixes[] = {
      "",        "",        "s",      "es",      "ies",   "sses", "ss",    "ed",      "eed",
      "ing",     "ational", "tional", "enci",    "anci",  "izer", "logi",  "bli",     "alli",
      "entli",   "eli",     "ousli",  "ization", "ation", "ator", "alism", "iveness", "fulness",
      "ousness", "aliti",   "iviti",  "biliti",  "ical",  "ness", "icate", "iciti",   "ful",
      "ative",   "alize",   "al",     "ance",    "ence",  "er",   "ic",    "able",    "ible",
      "ant",     "ement",   "ment",   "ent",     "sion",  "tion", "ion",   "ou",      "ism",
      "ate",     "iti",     "ous",    "ive",     "ize",   "e",    "ll",    "y",       "ly",
      "ated",    "ating",   "bled",   "ized"};
  std::string text;
  const int words = 1 + static_cast<int>((*rng)() % 12);
  for (int i = 0; i < words; ++i) {
    text += kStems[(*rng)() % (sizeof(kStems) / sizeof(kStems[0]))];
    const int suffixes = static_cast<int>((*rng)() % 3);
    for (int k = 0; k < suffixes; ++k) {
      text += kSuffixes[(*rng)() % (sizeof(kSuffixes) / sizeof(kSuffixes[0]))];
    }
    text += ' ';
  }
  return text;
}

std::string RandomText(std::mt19937* rng) {
  std::string text;
  const int len = static_cast<int>((*rng)() % 40);
  for (int k = 0; k < len; ++k) {
    const int kind = static_cast<int>((*rng)() % 10);
    uint32_t c = 0;
    if (kind < 3) {
      c = 'A' + (*rng)() % 58;
    } else if (kind < 4) {
      c = static_cast<unsigned char>(" .,-_'"[(*rng)() % 6]);
    } else if (kind < 6) {
      c = 0x80 + (*rng)() % 0x580;
    } else if (kind < 7) {
      c = 0x300 + (*rng)() % 0x70;
    } else if (kind < 8) {
      c = (*rng)() % 0x30000;
    } else if (kind < 9) {
      c = 0x1E00 + (*rng)() % 0x100;
    } else {
      text += static_cast<char>((*rng)() % 256);
      continue;
    }
    if ((c & 0xFFFFF800) == 0xD800) c = 'x';
    text += Utf8(c);
  }
  return text;
}

}  // namespace basalt::fts5test
