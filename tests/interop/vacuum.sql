-- Basalt rebuilds a database sqlite3 wrote (tests/interop/run.sh, step 3).
VACUUM;
