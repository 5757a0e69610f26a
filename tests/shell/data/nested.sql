.read nested.sql
SELECT 2;
