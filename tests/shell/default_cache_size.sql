-- PRAGMA default_cache_size is stored in the file's header and becomes the
-- cache_size of a connection that reads the file later (here: ATTACH).
ATTACH 'dcs.db' AS d;
CREATE TABLE IF NOT EXISTS d.t(a);
PRAGMA d.default_cache_size = 77;
PRAGMA d.cache_size;
DETACH d;
ATTACH 'dcs.db' AS e;
PRAGMA e.cache_size;
PRAGMA e.default_cache_size;
PRAGMA e.cache_size = 9;
PRAGMA e.cache_size;
PRAGMA e.default_cache_size = -30;
PRAGMA e.cache_size;
DETACH e;
ATTACH 'dcs.db' AS f;
PRAGMA f.cache_size;
