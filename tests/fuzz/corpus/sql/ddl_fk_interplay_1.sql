SELECT (SELECT count(*) FROM tlog), (SELECT count(*) FROM aux.alog);
