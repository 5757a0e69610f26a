SELECT 'x' COLLATE nosuch = 'y';
SELECT * FROM (SELECT 'x' COLLATE nosuch);
