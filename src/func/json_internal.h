// The JSON functions of SQLite 3.40.1 (json1.html): shared pieces, internal
// to src/func.
//
// A document is parsed once per call into a flat array of nodes (JsonDoc)
// that borrows the document's bytes; nothing is allocated per node and the
// arrays of a thread's scratch documents are reused from call to call.
//
// Node layout (the `id` column of json_each/json_tree is a node index):
//   - every value is one node; an array is followed by its elements, an
//     object by label, value, label, value, ... (a label is a string node
//     with kLabel), each element taking its own subtree;
//   - a container's `n` counts the nodes of its subtree after itself, so
//     the next sibling of node i is at i + Size(i);
//   - numbers and strings keep their JSON text (strings with their quotes),
//     which is what rendering copies out unchanged.
//
// Edits (json_set/insert/replace/remove/patch) never move nodes; they flag
// them and add nodes at the end:
//   kReplaced  render (and return) argument `aux` of the call instead;
//   kRemoved   skip the node (in an object: its label too);
//   kPatched   render node `aux` instead (json_patch);
//   kAppended  the container continues with the members of container
//              `append` (a chain, each link added by an edit); lookups and
//              rendering follow the chain.
// An added object holds exactly one label and one single-node value, an
// added array exactly one single-node element, so `n` stays right.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/assert.h"
#include "func/func_internal.h"

namespace basalt::func::json {

// sqlite3_result_subtype of JSON text ('J').
inline constexpr uint8_t kJsonSubtype = 74;
// Nesting limit of the parser: deeper documents are malformed.
inline constexpr int kMaxDepth = 2000;
inline constexpr uint32_t kNone = UINT32_MAX;
// Scratch buffers larger than this are released rather than kept.
inline constexpr size_t kKeepBytes = size_t{1} << 20;

enum class JType : uint8_t { kNull, kTrue, kFalse, kInt, kReal, kString, kArray, kObject };

// json_type() names, indexed by JType.
const char* TypeName(JType t);

enum NodeFlag : uint8_t {
  kEscaped = 1 << 0,   // a string with backslash escapes
  kRaw = 1 << 1,       // a string holding SQL text (no quotes, no escapes)
  kLabel = 1 << 2,     // an object member's label
  kRemoved = 1 << 3,   // see the header comment
  kReplaced = 1 << 4,  //
  kPatched = 1 << 5,   //
  kAppended = 1 << 6,  //
};

struct Node {
  const char* text = nullptr;  // numbers and strings
  uint32_t n = 0;              // text bytes; containers: nodes of the subtree after this one
  uint32_t aux = 0;            // kReplaced: argument index; kPatched: node index
  uint32_t append = 0;         // kAppended: the continuation container
  JType type = JType::kNull;
  uint8_t flags = 0;

  bool is_container() const { return type == JType::kArray || type == JType::kObject; }
};

// One parsed document (or two, for json_patch) and the nodes edits added.
class JsonDoc {
 public:
  // Parses text[0, n) (a NUL byte ends the text, as in SQLite, which reads
  // the value as a C string) after the nodes already there; false if the
  // text is not well-formed JSON (then the nodes are as before the call).
  bool Parse(const char* text, size_t n);
  // The same on a copy of text[0, n) that the document keeps until Clear().
  bool ParseCopy(const char* text, size_t n);
  // The k-th text ParseCopy kept (0: the first document).
  std::string_view text(size_t k) const {
    BASALT_DCHECK(k < texts_used_);
    return texts_[k];
  }
  size_t texts() const { return texts_used_; }
  // Forgets the documents. Buffers are kept for the next one, unless a
  // huge document made them big: a thread keeps ~1 MiB at most between calls.
  void Clear() {
    nodes_.clear();
    texts_used_ = 0;
    if (nodes_.capacity() > kKeepBytes / sizeof(Node)) std::vector<Node>().swap(nodes_);
    for (std::string& t : texts_) {
      if (t.capacity() > kKeepBytes) std::string().swap(t);
    }
  }

  size_t size() const { return nodes_.size(); }
  Node& at(uint32_t i) {
    BASALT_DCHECK(i < nodes_.size());
    return nodes_[i];
  }
  const Node& at(uint32_t i) const {
    BASALT_DCHECK(i < nodes_.size());
    return nodes_[i];
  }
  // Nodes taken by the subtree of node i.
  uint32_t Size(uint32_t i) const { return at(i).is_container() ? at(i).n + 1 : 1; }
  uint32_t Add(JType t, uint32_t n, const char* text);

  // Path lookup (json_path.cc). `path` is the whole path ("$..."); returns
  // the node or kNone. A syntax error sets *err to where it was found (the
  // rest of the path is quoted in the message) and returns kNone. With
  // `appended` non-null a missing last step is created (json_set/insert):
  // *appended tells whether that happened.
  uint32_t Lookup(std::string_view path, bool* appended, const char** err);
  // The same from node `root`, with `rest` after the "$".
  uint32_t LookupFrom(uint32_t root, const char* rest, const char* end, bool* appended,
                      const char** err);

  // Parent of every node (json_tree): parents()[i]; the root's is itself.
  const std::vector<uint32_t>& parents();

 private:
  uint32_t FindMember(uint32_t* obj, const char* key, size_t klen) const;
  uint32_t FindElement(uint32_t* arr, uint32_t* index) const;
  uint32_t AppendStep(const char* rest, const char* end, bool* appended);
  void Link(uint32_t container, uint32_t start);

  std::vector<Node> nodes_;
  std::vector<uint32_t> up_;
  std::vector<std::pair<uint32_t, uint32_t>> links_;  // Lookup's pending links
  // Copies of the documents (json_patch has two); a fixed array, so that
  // nodes pointing into a short string's inline bytes never move.
  std::string texts_[2];
  size_t texts_used_ = 0;
};

// Output text under construction (SQLite's JsonString). The buffer is kept
// between uses. An error (a BLOB) has been reported on ctx when failed().
class JsonOut {
 public:
  void Reset() {
    buf_.clear();
    if (buf_.capacity() > kKeepBytes) std::string().swap(buf_);
    failed_ = false;
  }
  void Char(char c) { buf_.push_back(c); }
  void Raw(const char* p, size_t n) { buf_.append(p, n); }
  void Raw(std::string_view s) { buf_.append(s.data(), s.size()); }
  // A comma unless the text is empty or ends in '[' or '{'.
  void Separator() {
    if (!buf_.empty() && buf_.back() != '[' && buf_.back() != '{') buf_.push_back(',');
  }
  // p[0, n) as a JSON string: quotes, \" \\ \b \f \n \r \t and \u00XX for
  // the other control bytes; every other byte unchanged.
  void String(const char* p, size_t n);
  // An SQL value as JSON: null, numbers as SQL renders them, text as a
  // string (raw when it has the JSON subtype); a BLOB is an error.
  void SqlValue(FuncContext* ctx, const Value& v);
  void Fail() { failed_ = true; }
  bool failed() const { return failed_; }
  std::string_view view() const { return buf_; }
  size_t size() const { return buf_.size(); }
  std::string& buffer() { return buf_; }
  // Result text with the JSON subtype (nothing when failed()).
  void SetResult(FuncContext* ctx) const;

 private:
  std::string buf_;
  bool failed_ = false;
};

// Appends node i (its subtree, edits applied; argv are the call's
// arguments, for kReplaced) to *out.
void Render(const JsonDoc& doc, uint32_t i, JsonOut* out, FuncContext* ctx, Value** argv);
// Node i as an SQL value (jsonReturn): null, 1/0 for true/false, numbers
// converted, strings unescaped, containers as JSON text with the subtype.
void ReturnNode(const JsonDoc& doc, uint32_t i, FuncContext* ctx, Value** argv);
// Node i as JSON text with the subtype.
void ReturnJson(const JsonDoc& doc, uint32_t i, FuncContext* ctx, Value** argv);

// Thread-local scratch: a document and an output buffer.
JsonDoc& ScratchDoc();
JsonOut& ScratchOut();

// Parses argv's text into the scratch document (a cached parse when it is
// the same text as the last read-only parse of this thread). Returns null
// for SQL NULL and for malformed JSON (then with "malformed JSON" on ctx
// when report is true). `for_edit` gives a fresh document the caller may
// change.
JsonDoc* ParseArg(FuncContext* ctx, const Value& v, bool report, bool for_edit);

// "JSON path error near '...'" quoting at[0, n), the path from the error on.
void PathError(FuncContext* ctx, const char* at, size_t n);
// Looks `path` up in doc, reporting syntax errors on ctx; NULL path (a
// null data pointer) gives kNone without error. *failed tells an error.
uint32_t LookupArg(JsonDoc* doc, const Value& path, bool* appended, FuncContext* ctx, bool* failed);

// The JSON function families.
std::span<const BuiltinSpec> ScalarFunctions();
std::span<const BuiltinSpec> EditFunctions();
std::span<const BuiltinSpec> GroupFunctions();

}  // namespace basalt::func::json
