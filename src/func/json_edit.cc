// The JSON functions that edit a document: json_set, json_insert,
// json_replace, json_remove and json_patch (SQLite 3.40.1).
//
// Each parses its document into the thread's scratch document, flags and
// appends nodes (json_internal.h) for every path in turn, then renders the
// root. Paths are applied left to right against the document as edited so
// far: json_set('{}', '$.a', 1, '$.a', 2) is {"a":2}; a value replaced by
// an earlier path cannot be stepped into by a later one.
//
// json_patch implements RFC 7396 the way SQLite does, including its
// quirks: labels are compared by their JSON text, a target label that an
// earlier member of the same patch already changed is left alone, and the
// members a patch adds come after the target's own.
#include <cstring>

#include "func/json_internal.h"

namespace basalt::func::json {
namespace {

constexpr uint32_t kJson = kFuncDeterministic;

// The root replaced as a whole gives that argument itself (its subtype
// too); otherwise the edited document.
void ReturnEdited(const JsonDoc& doc, FuncContext* ctx, Value** argv) {
  const Node& root = doc.at(0);
  if (root.flags & kReplaced) {
    ResultCopy(ctx, *argv[root.aux]);
  } else {
    ReturnJson(doc, 0, ctx, argv);
  }
}

bool CheckOdd(FuncContext* ctx, int argc, const char* name) {
  if (argc & 1) return true;
  SetFuncError(ctx, std::string("json_") + name + "() needs an odd number of arguments");
  return false;
}

// json_set (set = true) and json_insert: create what is missing; json_set
// also overwrites what exists.
void SetOrInsert(FuncContext* ctx, int argc, Value** argv, bool set) {
  if (argc < 1) return;
  if (!CheckOdd(ctx, argc, set ? "set" : "insert")) return;
  JsonDoc* doc = ParseArg(ctx, *argv[0], true, true);
  if (doc == nullptr) return;
  for (int k = 1; k < argc; k += 2) {
    bool appended = false, failed;
    uint32_t i = LookupArg(doc, *argv[k], &appended, ctx, &failed);
    if (failed) return;
    if (i != kNone && (appended || set)) {
      doc->at(i).flags |= kReplaced;
      doc->at(i).aux = static_cast<uint32_t>(k + 1);
    }
  }
  ReturnEdited(*doc, ctx, argv);
}

void SetFunc(FuncContext* ctx, int argc, Value** argv) { SetOrInsert(ctx, argc, argv, true); }
void InsertFunc(FuncContext* ctx, int argc, Value** argv) { SetOrInsert(ctx, argc, argv, false); }

// json_replace: overwrites what exists only.
void ReplaceFunc(FuncContext* ctx, int argc, Value** argv) {
  if (argc < 1) return;
  if (!CheckOdd(ctx, argc, "replace")) return;
  JsonDoc* doc = ParseArg(ctx, *argv[0], true, true);
  if (doc == nullptr) return;
  for (int k = 1; k < argc; k += 2) {
    bool failed;
    uint32_t i = LookupArg(doc, *argv[k], nullptr, ctx, &failed);
    if (failed) return;
    if (i != kNone) {
      doc->at(i).flags |= kReplaced;
      doc->at(i).aux = static_cast<uint32_t>(k + 1);
    }
  }
  ReturnEdited(*doc, ctx, argv);
}

// json_remove(X, P...): a NULL path, or removing the root, gives NULL.
void RemoveFunc(FuncContext* ctx, int argc, Value** argv) {
  if (argc < 1) return;
  JsonDoc* doc = ParseArg(ctx, *argv[0], true, true);
  if (doc == nullptr) return;
  for (int k = 1; k < argc; ++k) {
    if (argv[k]->is_null()) return;
    bool failed;
    uint32_t i = LookupArg(doc, *argv[k], nullptr, ctx, &failed);
    if (failed) return;
    if (i != kNone) doc->at(i).flags |= kRemoved;
  }
  if (!(doc->at(0).flags & kRemoved)) ReturnJson(*doc, 0, ctx, argv);
}

// Flags the null members of object `obj`, and those of the objects in it,
// removed (a patch member added to the target keeps no nulls).
void RemoveAllNulls(JsonDoc* doc, uint32_t obj) {
  const uint32_t end = obj + doc->at(obj).n;
  for (uint32_t v = obj + 2; v <= end; v += doc->Size(v) + 1) {
    Node& value = doc->at(v);
    if (value.type == JType::kNull) {
      value.flags |= kRemoved;
    } else if (value.type == JType::kObject) {
      RemoveAllNulls(doc, v);
    }
  }
}

// Merges patch node `patch` into target node `target`; returns the node
// that now stands for the target (the patch itself when it replaces it).
uint32_t MergePatch(JsonDoc* doc, uint32_t target, uint32_t patch) {
  if (doc->at(patch).type != JType::kObject) return patch;
  if (doc->at(target).type != JType::kObject) {
    RemoveAllNulls(doc, patch);
    return patch;
  }
  uint32_t tail = target;  // the object the next added member links from
  const uint32_t patch_end = patch + doc->at(patch).n;
  for (uint32_t p = patch + 1; p < patch_end; p += 1 + doc->Size(p + 1)) {
    const Node key = doc->at(p);
    const bool null_value = doc->at(p + 1).type == JType::kNull;
    const uint32_t target_end = target + doc->at(target).n;
    uint32_t t = target + 1;
    for (; t < target_end; t += 1 + doc->Size(t + 1)) {
      const Node& label = doc->at(t);
      if (label.n != key.n || std::memcmp(label.text, key.text, key.n) != 0) continue;
      if (doc->at(t + 1).flags & (kRemoved | kPatched)) break;
      if (null_value) {
        doc->at(t + 1).flags |= kRemoved;
      } else {
        uint32_t merged = MergePatch(doc, t + 1, p + 1);
        if (merged != t + 1) {
          doc->at(t + 1).flags |= kPatched;
          doc->at(t + 1).aux = merged;
        }
      }
      break;
    }
    if (t < target_end || null_value) continue;
    // A new member: an added object {label: placeholder} patched to the
    // patch's value. As in SQLite, a second added member re-links the
    // object the first one was added to.
    uint32_t start = doc->Add(JType::kObject, 2, nullptr);
    uint32_t label = doc->Add(JType::kString, key.n, key.text);
    doc->at(label).flags = static_cast<uint8_t>(key.flags & (kEscaped | kLabel));
    uint32_t placeholder = doc->Add(JType::kTrue, 0, nullptr);
    RemoveAllNulls(doc, patch);
    doc->at(tail).flags |= kAppended;
    doc->at(tail).append = start;
    tail = start;
    doc->at(placeholder).flags |= kPatched;
    doc->at(placeholder).aux = p + 1;
  }
  return target;
}

// json_patch(T, P): NULL for a NULL T or P; "malformed JSON" for either.
void PatchFunc(FuncContext* ctx, int, Value** argv) {
  JsonDoc* doc = ParseArg(ctx, *argv[0], true, true);
  if (doc == nullptr || argv[1]->is_null()) return;
  const uint32_t patch = static_cast<uint32_t>(doc->size());
  TextOf t(*argv[1]);
  if (!doc->ParseCopy(t.data(), t.c_size())) {
    SetFuncError(ctx, "malformed JSON");
    return;
  }
  ReturnJson(*doc, MergePatch(doc, 0, patch), ctx, argv);
}

constexpr BuiltinSpec kEdits[] = {
    Scalar("json_insert", -1, kJson, InsertFunc), Scalar("json_patch", 2, kJson, PatchFunc),
    Scalar("json_remove", -1, kJson, RemoveFunc), Scalar("json_replace", -1, kJson, ReplaceFunc),
    Scalar("json_set", -1, kJson, SetFunc),
};

}  // namespace

std::span<const BuiltinSpec> EditFunctions() { return kEdits; }

}  // namespace basalt::func::json
