SELECT 1;
.read bad.sql
SELECT 3;
