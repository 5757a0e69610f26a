SELECT typeof('Infinity' + 0), quote('Infinity' + 0), quote('Infinity' * 1.0), quote(- 'Infinity');
SELECT quote(+'12'), quote(abs('-12')), quote(abs('-1.5x'));
SELECT quote('10' + '20'), quote('1.5' + '1.5'), quote('2' * '3');
SELECT quote('7' / '2'), quote('7.0' / '2'), quote('7' % '2.5');
SELECT quote('9223372036854775807' + 1), quote('9223372036854775807' + 0);
SELECT quote(sum(x)), typeof(sum(x)) FROM (SELECT '1' AS x UNION ALL SELECT '2.5' UNION ALL SELECT 'a');
SELECT quote(total('3')), quote(avg('4'));
SELECT quote('5' << 1), quote('1.9' | 0), quote(~'3');
