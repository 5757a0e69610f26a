INSERT INTO big SELECT id + 1000, pad || 'y' FROM big WHERE id % 3 = 0;
SELECT count(*), sum(length(pad)), min(id), max(id) FROM big;
UPDATE big SET pad = pad || pad WHERE id % 5 = 0;
DELETE FROM big WHERE id % 4 = 1;
SELECT count(*), sum(length(pad)), sum(id) FROM big;
PRAGMA integrity_check;
VACUUM;
SELECT count(*), sum(length(pad)), sum(id) FROM big;
PRAGMA integrity_check;
