// Window functions of one SELECT core after binding (windowfunctions.html).
//
// Each call `f(args) [FILTER (WHERE ..)] OVER (..)` of a SELECT's result
// columns or ORDER BY is one WinFunc; its window is the call's own OVER
// clause merged with the named windows it refers to. The call's Expr keeps
// its position in `funcs` in Expr::column (Expr::agg stays -1), which is how
// code generation finds the register holding its value for the current row.
#pragma once

#include <vector>

#include "catalog/function.h"
#include "parser/ast.h"
#include "record/collation.h"

namespace basalt {

struct WinFunc {
  ast::Expr* call = nullptr;
  const FunctionDef* def = nullptr;
  ast::Window* win = nullptr;       // merged: partition, order, frame
  const Collation* coll = nullptr;  // for min()/max() and the like
};

struct WindowInfo {
  ast::Select* select = nullptr;  // whose WINDOW clause names are looked up
  std::vector<WinFunc> funcs;
};

}  // namespace basalt
