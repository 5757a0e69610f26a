// json_group_array(X) and json_group_object(K, V) (SQLite 3.40.1), with
// the window-frame value/inverse entry points SQLite has for them.
//
// The state is the JSON text built so far, without its closing bracket:
// "[" or "{" then the members, comma separated. value() closes it for the
// result and reopens it; inverse() drops the first member (the text up to
// the first comma outside strings and nested containers).
//
// Quirk kept: a NULL label adds nothing to json_group_object's text, so
// json_group_object(NULL, 1) is {:1}.
#include "func/json_internal.h"

namespace basalt::func::json {
namespace {

struct GroupState {
  JsonOut* out;  // null until the first step
};

JsonOut* Open(FuncContext* ctx, char bracket) {
  auto* st = static_cast<GroupState*>(AggregateContext(ctx, sizeof(GroupState)));
  if (st->out == nullptr) {
    st->out = new JsonOut();
    st->out->Char(bracket);
  } else if (st->out->size() > 1) {
    st->out->Char(',');
  }
  return st->out;
}

void ArrayStep(FuncContext* ctx, int, Value** argv) { Open(ctx, '[')->SqlValue(ctx, *argv[0]); }

void ObjectStep(FuncContext* ctx, int, Value** argv) {
  JsonOut* out = Open(ctx, '{');
  TextOf label(*argv[0]);
  if (!label.is_null()) out->String(label.data(), label.size());
  out->Char(':');
  out->SqlValue(ctx, *argv[1]);
}

// The result: the text closed by `bracket`; `final` frees the state.
void Compute(FuncContext* ctx, const char* empty, char bracket, bool final) {
  auto* st = static_cast<GroupState*>(AggregateContext(ctx, 0));
  if (st == nullptr || st->out == nullptr) {
    ctx->result->SetTextStatic(empty);
    ctx->result->set_subtype(kJsonSubtype);
    return;
  }
  st->out->Char(bracket);
  st->out->SetResult(ctx);
  st->out->buffer().pop_back();
  if (final) {
    delete st->out;
    st->out = nullptr;
  }
}

void ArrayFinal(FuncContext* ctx) { Compute(ctx, "[]", ']', true); }
void ArrayValue(FuncContext* ctx) { Compute(ctx, "[]", ']', false); }
void ObjectFinal(FuncContext* ctx) { Compute(ctx, "{}", '}', true); }
void ObjectValue(FuncContext* ctx) { Compute(ctx, "{}", '}', false); }

void Inverse(FuncContext* ctx, int, Value**) {
  auto* st = static_cast<GroupState*>(AggregateContext(ctx, 0));
  if (st == nullptr || st->out == nullptr) return;
  std::string& s = st->out->buffer();
  bool in_string = false;
  int nest = 0;
  size_t i = 1;
  for (; i < s.size(); ++i) {
    char c = s[i];
    if (c == ',' && !in_string && nest == 0) break;
    if (c == '"') {
      in_string = !in_string;
    } else if (c == '\\') {
      ++i;
    } else if (!in_string) {
      if (c == '{' || c == '[') ++nest;
      if (c == '}' || c == ']') --nest;
    }
  }
  s.erase(1, i < s.size() ? i : s.size() - 1);
}

// As SQLite registers them: deterministic, reading the JSON subtype.
constexpr uint32_t kGroup = kFuncDeterministic | kFuncSubtype;

constexpr BuiltinSpec kGroups[] = {
    Aggregate("json_group_array", 1, kGroup, ArrayStep, ArrayFinal, ArrayValue, Inverse),
    Aggregate("json_group_object", 2, kGroup, ObjectStep, ObjectFinal, ObjectValue, Inverse),
};

}  // namespace

std::span<const BuiltinSpec> GroupFunctions() { return kGroups; }

}  // namespace basalt::func::json
