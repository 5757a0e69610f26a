// LIKE and GLOB (lang_expr "The LIKE, GLOB, REGEXP, MATCH ... operators").
//
// like(P,S[,E]) implements "S LIKE P ESCAPE E" and glob(P,S) "S GLOB P": the
// pattern comes first. Rules, as SQLite 3.40.1 applies them:
//  1. A BLOB operand never matches (the referee is built with
//     SQLITE_LIKE_DOESNT_MATCH_BLOBS): the result is 0, even against NULL.
//  2. A pattern longer than 50000 bytes (SQLITE_MAX_LIKE_PATTERN_LENGTH) is
//     an error: "LIKE or GLOB pattern too complex".
//  3. The escape must be exactly one character, else "ESCAPE expression must
//     be a single character"; a NULL escape gives NULL.
//  4. NULL pattern or string gives NULL; numbers match through their text.
//  5. Strings are read as SQLite reads them: up to the first NUL byte, UTF-8
//     decoded leniently (ReadUtf8).
//  6. LIKE: '%' any run, '_' one character, ASCII letters fold case unless
//     case_sensitive_like is on. An escape equal to '%' or '_' turns that
//     wildcard off. GLOB: '*', '?', '[...]' sets with ranges and '^', always
//     case sensitive.
#include <cstring>

#include "func/func_internal.h"

namespace basalt::func {
namespace {

constexpr int kLikePatternLimit = 50000;

// How one flavour of pattern matching behaves.
struct MatchInfo {
  uint32_t match_all;  // '%' or '*' (0: disabled by the escape)
  uint32_t match_one;  // '_' or '?' (0: disabled by the escape)
  uint32_t match_set;  // '[' for GLOB, 0 for LIKE
  bool no_case;        // ASCII case folding
};

constexpr MatchInfo kGlobInfo = {'*', '?', '[', false};
constexpr MatchInfo kLikeNoCase = {'%', '_', 0, true};
constexpr MatchInfo kLikeCase = {'%', '_', 0, false};

enum MatchResult { kMatch = 0, kNoMatch = 1, kNoWildcardMatch = 2 };

using Byte = unsigned char;

// Next character, 0 at the end.
inline uint32_t Next(const Byte** p, const Byte* end) {
  if (*p >= end) return 0;
  if (**p < 0x80) return *(*p)++;
  return ReadUtf8(p, end);
}

// Matches pattern [pat, pend) against [str, send). `other` is the escape
// character for LIKE (0 if none) and '[' for GLOB. kNoWildcardMatch tells a
// caller scanning for a '*' continuation that no later start can match
// either, which keeps the search from going quadratic.
int PatternCompare(const Byte* pat, const Byte* pend, const Byte* str, const Byte* send,
                   const MatchInfo& info, uint32_t other) {
  uint32_t c, c2;
  const Byte* escaped = nullptr;  // just past the last escaped pattern char
  while ((c = Next(&pat, pend)) != 0) {
    if (c == info.match_all) {
      // Collapse runs of match_all; each match_one in the run eats one char.
      while ((c = Next(&pat, pend)) == info.match_all ||
             (c == info.match_one && info.match_one != 0)) {
        if (c == info.match_one && Next(&str, send) == 0) return kNoWildcardMatch;
      }
      if (c == 0) return kMatch;  // trailing wildcard matches the rest
      if (c == other) {
        if (info.match_set == 0) {
          c = Next(&pat, pend);  // escaped literal after the wildcard
          if (c == 0) return kNoWildcardMatch;
        } else {
          // A set right after '*': try every start position.
          while (str < send) {
            int r = PatternCompare(pat - 1, pend, str, send, info, other);
            if (r != kNoMatch) return r;
            str = SkipUtf8(str, send);
          }
          return kNoWildcardMatch;
        }
      }
      // c is the first literal after the wildcard: find each occurrence in
      // the string and try to match the rest from just after it.
      if (c < 0x80) {
        Byte s1 = static_cast<Byte>(c);
        Byte s2 = s1;
        if (info.no_case) {
          s1 = AsciiUpper(s1);
          s2 = AsciiLower(s2);
        }
        while (true) {
          while (str < send && *str != s1 && *str != s2) ++str;
          if (str >= send) break;
          ++str;
          int r = PatternCompare(pat, pend, str, send, info, other);
          if (r != kNoMatch) return r;
        }
      } else {
        while ((c2 = Next(&str, send)) != 0) {
          if (c2 != c) continue;
          int r = PatternCompare(pat, pend, str, send, info, other);
          if (r != kNoMatch) return r;
        }
      }
      return kNoWildcardMatch;
    }
    if (c == other) {
      if (info.match_set == 0) {
        c = Next(&pat, pend);
        if (c == 0) return kNoMatch;
        escaped = pat;
      } else {
        // GLOB set: [abc], [a-z], [^...], a leading ']' is literal.
        uint32_t prior = 0;
        bool seen = false;
        bool invert = false;
        c = Next(&str, send);
        if (c == 0) return kNoMatch;
        c2 = Next(&pat, pend);
        if (c2 == '^') {
          invert = true;
          c2 = Next(&pat, pend);
        }
        if (c2 == ']') {
          if (c == ']') seen = true;
          c2 = Next(&pat, pend);
        }
        while (c2 != 0 && c2 != ']') {
          if (c2 == '-' && pat < pend && pat[0] != ']' && prior > 0) {
            c2 = Next(&pat, pend);
            if (c >= prior && c <= c2) seen = true;
            prior = 0;
          } else {
            if (c == c2) seen = true;
            prior = c2;
          }
          c2 = Next(&pat, pend);
        }
        if (c2 == 0 || seen == invert) return kNoMatch;
        continue;
      }
    }
    c2 = Next(&str, send);
    if (c == c2) continue;
    if (info.no_case && c < 0x80 && c2 < 0x80 &&
        AsciiLower(static_cast<Byte>(c)) == AsciiLower(static_cast<Byte>(c2))) {
      continue;
    }
    if (c == info.match_one && pat != escaped && c2 != 0) continue;
    return kNoMatch;
  }
  return str >= send ? kMatch : kNoMatch;
}

// Number of characters before the first NUL (sqlite3Utf8CharLen).
size_t CharCount(const Byte* z, const Byte* end) {
  size_t n = 0;
  while (z < end && *z != 0) {
    z = SkipUtf8(z, end);
    ++n;
  }
  return n;
}

template <const MatchInfo* kInfo>
void LikeFunc(FuncContext* ctx, int argc, Value** argv) {
  if (argv[0]->is_blob() || argv[1]->is_blob()) {
    ctx->result->SetInt(0);
    return;
  }
  TextOf pat(*argv[0]);
  int limit = ctx->conn != nullptr ? ctx->conn->Limit(8) : -1;  // SQLITE_LIMIT_LIKE_PATTERN_LENGTH
  if (limit < 0) limit = kLikePatternLimit;
  if (pat.size() > static_cast<size_t>(limit)) {
    SetFuncError(ctx, "LIKE or GLOB pattern too complex");
    return;
  }
  MatchInfo info = *kInfo;
  uint32_t other = info.match_set;
  if (argc == 3) {
    TextOf esc(*argv[2]);
    if (esc.is_null()) {
      ctx->result->SetNull();
      return;
    }
    const Byte* e = esc.udata();
    const Byte* eend = e + esc.size();
    if (CharCount(e, eend) != 1) {
      SetFuncError(ctx, "ESCAPE expression must be a single character");
      return;
    }
    other = Next(&e, eend);
    if (other == info.match_all) info.match_all = 0;
    if (other == info.match_one) info.match_one = 0;
  }
  TextOf str(*argv[1]);
  if (pat.is_null() || str.is_null()) {
    ctx->result->SetNull();
    return;
  }
  const Byte* p = pat.udata();
  const Byte* s = str.udata();
  int r = PatternCompare(p, p + pat.c_size(), s, s + str.c_size(), info, other);
  ctx->result->SetInt(r == kMatch ? 1 : 0);
}

constexpr BuiltinSpec kGlobTable[] = {
    Scalar("glob", 2, kPure, LikeFunc<&kGlobInfo>),
};
constexpr BuiltinSpec kLikeNoCaseTable[] = {
    Scalar("like", 2, kPure, LikeFunc<&kLikeNoCase>),
    Scalar("like", 3, kPure, LikeFunc<&kLikeNoCase>),
};
constexpr BuiltinSpec kLikeCaseTable[] = {
    Scalar("like", 2, kPure, LikeFunc<&kLikeCase>),
    Scalar("like", 3, kPure, LikeFunc<&kLikeCase>),
};

}  // namespace

std::span<const BuiltinSpec> PatternFunctions() { return kGlobTable; }

std::span<const BuiltinSpec> LikeFunctions(bool case_sensitive) {
  if (case_sensitive) return kLikeCaseTable;
  return kLikeNoCaseTable;
}

}  // namespace basalt::func

namespace basalt {

int StrGlob(const char* pattern, const char* str) {
  const auto* p = reinterpret_cast<const func::Byte*>(pattern);
  const auto* s = reinterpret_cast<const func::Byte*>(str);
  return func::PatternCompare(p, p + std::strlen(pattern), s, s + std::strlen(str), func::kGlobInfo,
                              func::kGlobInfo.match_set);
}

int StrLike(const char* pattern, const char* str, unsigned escape) {
  func::MatchInfo info = func::kLikeNoCase;
  if (escape == info.match_all) info.match_all = 0;
  if (escape == info.match_one) info.match_one = 0;
  const auto* p = reinterpret_cast<const func::Byte*>(pattern);
  const auto* s = reinterpret_cast<const func::Byte*>(str);
  return func::PatternCompare(p, p + std::strlen(pattern), s, s + std::strlen(str), info, escape);
}

}  // namespace basalt
