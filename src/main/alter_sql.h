// ALTER TABLE's edits of the SQL text stored in sqlite_schema. As in
// SQLite, the text is never regenerated: the tokens that name the renamed
// table or column are found and replaced in place, everything else (spacing,
// comments, case) is kept byte for byte.
//
// Finding the tokens works on the token stream, not on a resolved parse:
//   1. a table is named where the grammar expects a table (after FROM, JOIN,
//      INTO, UPDATE, REFERENCES, a comma of a FROM list, the ON of an index
//      or trigger header, the name of CREATE TABLE), or as the qualifier of a
//      column (`t.x`);
//   2. a column is named by an identifier in an expression, a column list or
//      a SET target of a statement that involves the table (unqualified), or
//      qualified by the table, one of its aliases, or new/old in a trigger
//      on the table.
// Views and trigger bodies are also compiled against the schema before the
// edit (ddl_alter.cc), and what the resolver bound settles the expression
// references (a Resolution): a name that resolved to another table's column
// is left alone, and double-quoted names that fell back to strings are
// rewritten as string literals, as SQLite does for RENAME and DROP COLUMN.
// Known limit: without a Resolution (tables, indexes) a CTE that shadows
// the table's name is taken for the table.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace basalt::alter {

// What an edit is about.
struct Target {
  std::string table;   // the altered table's name (old name for RENAME TO)
  std::string column;  // RENAME / DROP COLUMN: the column
  // How an unqualified table name in the edited statement resolves: true
  // when it means the altered table. `schema.t` matches when schema is
  // `db_name`.
  bool unqualified_ok = true;
  std::string db_name;
  bool legacy = false;  // PRAGMA legacy_alter_table (RENAME TO only)
  // In legacy mode: REFERENCES clauses are renamed too (as SQLite does
  // while foreign keys are enforced).
  bool legacy_references = false;
};

// What compiling a view or trigger found, as offsets into its SQL text:
// where column references start (their qualifier, if any) and where
// double-quoted names were read as strings.
struct Resolution {
  std::vector<size_t> target_refs;  // references to the renamed / dropped column
  std::vector<size_t> other_refs;   // references to any other column
  std::vector<size_t> dq_strings;
};

// sqlite_schema.sql of a table, index, view or trigger with every reference
// to `t.table` renamed to `new_name` (always double-quoted, as SQLite does).
// Returns false when nothing was renamed.
bool RenameTable(std::string_view sql, const Target& t, std::string_view new_name,
                 std::string* out);

// The same for column `t.column` of `t.table`; `quoted`: the new name was
// written quoted in the ALTER statement. `res` (may be null) settles the
// expression references and lists the strings to requote.
bool RenameColumn(std::string_view sql, const Target& t, std::string_view new_name, bool quoted,
                  const Resolution* res, std::string* out);

// True if the statement refers to column `t.column` of `t.table` anywhere
// but its own definition; *what gets the reference as written ("new.c").
bool RefersToColumn(std::string_view sql, const Target& t, const Resolution* res,
                    std::string* what);

// The statement with the double-quoted names starting at `offsets` written
// as string literals ("it""s" becomes 'it"s'). False when there are none.
bool QuoteStrings(std::string_view sql, const std::vector<size_t>& offsets, std::string* out);

// CREATE TABLE text with `column_text` appended as the last column
// definition (before any table constraint).
bool AddColumn(std::string_view sql, std::string_view column_text, std::string* out);

// CREATE TABLE text without the definition of column number `col`.
bool DropColumn(std::string_view sql, int col, std::string* out);

}  // namespace basalt::alter
