SELECT typeof(x), quote(x) FROM t ORDER BY rowid;
