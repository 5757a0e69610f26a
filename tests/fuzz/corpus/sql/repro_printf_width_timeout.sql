SELECT printf('%.*c', 2000000000, 'x');
SELECT length(printf('%.*c', 999999, 'x'));
SELECT zeroblob(999999999);
SELECT randomblob(999999999);
SELECT hex(zeroblob(600000));
