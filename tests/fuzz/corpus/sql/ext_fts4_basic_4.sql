SELECT name FROM sqlite_schema;
