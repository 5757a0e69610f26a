// json_each(X [, P]) and json_tree(X [, P]) (json1.html "The json_each()
// and json_tree() table-valued functions"), as SQLite 3.40.1 has them:
// eponymous-only virtual tables with the columns
//   key, value, type, atom, id, parent, fullkey, path, json HIDDEN, root HIDDEN
// whose hidden columns take the arguments.
//
// Protocol:
//   1. BestIndex takes `=` on json (argv 1) and then root (argv 2); idx_num
//      0 (no json: no rows), 1 (json) or 3 (json and root). An unusable
//      constraint on json or root with no usable `=` one on the same column
//      makes the plan unusable, so a join feeds the arguments from outside.
//   2. Filter copies and parses the document ("malformed JSON"), finds the
//      node P names ("JSON path error near ..."; absent: no rows) and starts
//      at it: json_each visits its children (or the node alone if it is not
//      a container), json_tree the node and its whole subtree in document
//      order (an object member is visited at its label node).
//   3. Columns: id is the node index (json_internal.h); key the label or
//      the array index; parent (json_tree, not on the first row) the id of
//      the container; fullkey and path the path of the row and of its
//      container. Paths quote labels that are not an ASCII letter followed
//      by letters and digits: $."a b".c
//   4. Quirk kept: json_tree takes an array element's index from a counter
//      on its array that the walk advances; arrays above the starting node
//      are never walked, so their counters read 0 (json_tree('[0,[1]]',
//      '$[1]') reports fullkey $[0] for its first row, like SQLite).
#include "func/json_each.h"

#include <memory>
#include <string>

#include "catalog/vtab.h"
#include "func/json_internal.h"

namespace basalt {
namespace {

using func::IsAsciiAlpha;
using func::IsAsciiDigit;
using func::json::JsonDoc;
using func::json::JType;
using func::json::kLabel;
using func::json::kNone;
using func::json::Node;
using func::json::ReturnNode;
using func::json::TypeName;

enum Column : int {
  kKey = 0,
  kValue,
  kType,
  kAtom,
  kId,
  kParent,
  kFullkey,
  kPath,
  kJson,  // hidden
  kRoot,  // hidden
};

constexpr const char* kDeclaration =
    "CREATE TABLE x(key,value,type,atom,id,parent,fullkey,path,json HIDDEN,root HIDDEN)";

class EachCursor : public VtabCursor {
 public:
  explicit EachCursor(bool tree) : tree_(tree) {}

  Status Filter(int idx_num, const std::string& idx_str, int argc, Value** argv) override;
  Status Next() override;
  bool Eof() override { return i_ >= end_; }
  Status Column(FuncContext* ctx, int col) override;
  Status Rowid(int64_t* rowid) override {
    *rowid = rowid_;
    return Status();
  }

 private:
  bool is_label(uint32_t i) const { return (doc_.at(i).flags & kLabel) != 0; }
  void AppendPath(uint32_t i, std::string* out);
  void AppendLabel(const Node& label, std::string* out) const;

  bool tree_;
  JsonDoc doc_;
  uint32_t parent(uint32_t i) const { return (*parents_)[i]; }
  const std::vector<uint32_t>* parents_ = nullptr;  // json_tree: kept by doc_
  std::vector<uint32_t> keys_;                      // json_tree: the array counters (protocol 4)
  std::string root_;                                // the path argument; empty: none
  uint32_t i_ = 0, begin_ = 0, end_ = 0;
  JType type_ = JType::kNull;  // the container of the current row (or its own type)
  int64_t rowid_ = 0;
  std::vector<uint32_t> chain_;  // scratch for AppendPath
  std::string text_;             // scratch for fullkey and path
};

// "[N]".
void AppendIndex(uint64_t n, std::string* out) {
  char buf[24];
  int len = IntToText(static_cast<int64_t>(n), buf);
  out->push_back('[');
  out->append(buf, static_cast<size_t>(len));
  out->push_back(']');
}

Status EachCursor::Filter(int idx_num, const std::string&, int argc, Value** argv) {
  doc_.Clear();
  root_.clear();
  i_ = end_ = 0;
  rowid_ = 0;
  if (idx_num == 0 || argc < 1 || argv[0]->is_null()) return Status();
  func::TextOf text(*argv[0]);
  if (!doc_.ParseCopy(text.data(), text.c_size())) return Status(kError, "malformed JSON");
  if (tree_) {
    parents_ = &doc_.parents();
    keys_.assign(doc_.size(), 0);
  }
  uint32_t node = 0;
  if (idx_num == 3 && argc >= 2) {
    func::TextOf path(*argv[1]);
    if (path.is_null()) return Status();
    root_.assign(path.data(), path.c_size());
    const char* err = nullptr;
    if (root_.empty() || root_[0] != '$') {
      err = root_.data();
    } else {
      node = doc_.LookupFrom(0, root_.data() + 1, root_.data() + root_.size(), nullptr, &err);
    }
    if (err != nullptr) {
      std::string msg = "JSON path error near '";
      for (const char* p = err; p < root_.data() + root_.size(); ++p) {
        if (*p == '\'') msg += '\'';
        msg += *p;
      }
      root_.clear();
      return Status(kError, msg + "'");
    }
    if (node == kNone) return Status();
  }
  begin_ = i_ = node;
  const Node& nd = doc_.at(node);
  type_ = nd.type;
  if (!nd.is_container()) {
    end_ = i_ + 1;
    return Status();
  }
  end_ = i_ + nd.n + 1;
  if (!tree_) {
    ++i_;
  } else {
    type_ = doc_.at(parent(i_)).type;
    if (i_ > 0 && is_label(i_ - 1)) --i_;
  }
  return Status();
}

Status EachCursor::Next() {
  if (!tree_) {
    switch (type_) {
      case JType::kArray:
        i_ += doc_.Size(i_);
        break;
      case JType::kObject:
        i_ += 1 + doc_.Size(i_ + 1);
        break;
      default:
        i_ = end_;
        return Status();
    }
    ++rowid_;
    return Status();
  }
  if (is_label(i_)) ++i_;
  ++i_;
  ++rowid_;
  if (i_ < end_) {
    uint32_t up = parent(i_);
    type_ = doc_.at(up).type;
    if (type_ == JType::kArray) keys_[up] = (up == i_ - 1) ? 0 : keys_[up] + 1;
  }
  return Status();
}

// "." and the label, bare when it is a letter followed by letters and
// digits, else in its JSON quotes.
void EachCursor::AppendLabel(const Node& label, std::string* out) const {
  const char* z = label.text;
  size_t n = label.n;
  bool bare = n > 2 && IsAsciiAlpha(static_cast<unsigned char>(z[1]));
  for (size_t k = 2; bare && k + 1 < n; ++k) {
    unsigned char c = static_cast<unsigned char>(z[k]);
    bare = IsAsciiAlpha(c) || IsAsciiDigit(c);
  }
  out->push_back('.');
  if (bare) {
    out->append(z + 1, n - 2);
  } else {
    out->append(z, n);
  }
}

// The path of node i from the document's root (json_tree).
void EachCursor::AppendPath(uint32_t i, std::string* out) {
  chain_.clear();
  for (; i != 0; i = parent(i)) chain_.push_back(i);
  out->push_back('$');
  for (size_t k = chain_.size(); k-- > 0;) {
    uint32_t node = chain_[k];
    uint32_t up = parent(node);
    if (doc_.at(up).type == JType::kArray) {
      AppendIndex(keys_[up], out);
    } else {
      AppendLabel(doc_.at(is_label(node) ? node : node - 1), out);
    }
  }
}

Status EachCursor::Column(FuncContext* ctx, int col) {
  uint32_t value = is_label(i_) ? i_ + 1 : i_;
  switch (col) {
    case kKey:
      if (i_ == 0) break;
      if (type_ == JType::kObject) {
        ReturnNode(doc_, i_, ctx, nullptr);
      } else if (type_ == JType::kArray) {
        if (!tree_) {
          ctx->result->SetInt(rowid_);
        } else if (rowid_ != 0) {
          ctx->result->SetInt(keys_[parent(i_)]);
        }
      }
      break;
    case kValue:
      ReturnNode(doc_, value, ctx, nullptr);
      break;
    case kType:
      ctx->result->SetTextStatic(TypeName(doc_.at(value).type));
      break;
    case kAtom:
      if (!doc_.at(value).is_container()) ReturnNode(doc_, value, ctx, nullptr);
      break;
    case kId:
      ctx->result->SetInt(value);
      break;
    case kParent:
      if (tree_ && i_ > begin_) ctx->result->SetInt(parent(i_));
      break;
    case kFullkey: {
      std::string& s = text_;
      s.clear();
      if (tree_) {
        AppendPath(i_, &s);
      } else {
        s = root_.empty() ? "$" : root_;
        if (type_ == JType::kArray) {
          AppendIndex(static_cast<uint64_t>(rowid_), &s);
        } else if (type_ == JType::kObject) {
          AppendLabel(doc_.at(i_), &s);
        }
      }
      ctx->result->SetText(s);
      break;
    }
    case kPath:
      if (tree_) {
        text_.clear();
        AppendPath(parent(i_), &text_);
        ctx->result->SetText(text_);
        break;
      }
      [[fallthrough]];
    case kRoot:
      ctx->result->SetText(root_.empty() ? std::string_view("$") : std::string_view(root_));
      break;
    case kJson:
      ctx->result->SetText(doc_.text(0));
      break;
    default:
      break;
  }
  return Status();
}

class EachVtab : public Vtab {
 public:
  explicit EachVtab(bool tree) : tree_(tree) {}

  Status BestIndex(IndexInfo* info) override {
    int use[2] = {-1, -1};
    int unusable = 0, usable = 0;
    info->estimated_cost = 1.0;
    for (size_t i = 0; i < info->constraints.size(); ++i) {
      const IndexInfo::Constraint& c = info->constraints[i];
      if (c.column < kJson) continue;
      const int k = c.column - kJson;
      if (!c.usable) {
        unusable |= 1 << k;
      } else if (c.op == kVtabEq) {
        use[k] = static_cast<int>(i);
        usable |= 1 << k;
      }
    }
    if ((unusable & ~usable) != 0) return Status(kConstraint, "json_each constraint not usable");
    if (use[0] < 0) {
      info->idx_num = 0;
      return Status();
    }
    info->constraints[static_cast<size_t>(use[0])].argv_index = 1;
    info->constraints[static_cast<size_t>(use[0])].omit = true;
    if (use[1] < 0) {
      info->idx_num = 1;
      return Status();
    }
    info->constraints[static_cast<size_t>(use[1])].argv_index = 2;
    info->constraints[static_cast<size_t>(use[1])].omit = true;
    info->idx_num = 3;
    return Status();
  }
  Status Open(std::unique_ptr<VtabCursor>* out) override {
    *out = std::make_unique<EachCursor>(tree_);
    return Status();
  }

 private:
  bool tree_;
};

class EachModule : public VtabModule {
 public:
  explicit EachModule(bool tree) : tree_(tree) {}
  Status Create(const VtabArgs& args, std::unique_ptr<Vtab>* out, std::string* declared) override {
    return Connect(args, out, declared);
  }
  Status Connect(const VtabArgs&, std::unique_ptr<Vtab>* out, std::string* declared) override {
    *declared = kDeclaration;
    *out = std::make_unique<EachVtab>(tree_);
    return Status();
  }
  bool eponymous() const override { return true; }
  bool eponymous_only() const override { return true; }

 private:
  bool tree_;
};

}  // namespace

std::shared_ptr<VtabModule> MakeJsonEachModule(bool tree) {
  return std::make_shared<EachModule>(tree);
}

}  // namespace basalt
