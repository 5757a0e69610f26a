SELECT typeof('12' + 0), quote('12' + 0), quote('12' * 1.0), quote(- '12');
SELECT typeof('  12  ' + 0), quote('  12  ' + 0), quote('  12  ' * 1.0), quote(- '  12  ');
SELECT typeof('12abc' + 0), quote('12abc' + 0), quote('12abc' * 1.0), quote(- '12abc');
SELECT typeof('abc' + 0), quote('abc' + 0), quote('abc' * 1.0), quote(- 'abc');
SELECT typeof('' + 0), quote('' + 0), quote('' * 1.0), quote(- '');
SELECT typeof('0x10' + 0), quote('0x10' + 0), quote('0x10' * 1.0), quote(- '0x10');
SELECT typeof('1e' + 0), quote('1e' + 0), quote('1e' * 1.0), quote(- '1e');
SELECT typeof('1e2x' + 0), quote('1e2x' + 0), quote('1e2x' * 1.0), quote(- '1e2x');
SELECT typeof('-' + 0), quote('-' + 0), quote('-' * 1.0), quote(- '-');
SELECT typeof('+' + 0), quote('+' + 0), quote('+' * 1.0), quote(- '+');
SELECT typeof('.5' + 0), quote('.5' + 0), quote('.5' * 1.0), quote(- '.5');
SELECT typeof('5.' + 0), quote('5.' + 0), quote('5.' * 1.0), quote(- '5.');
SELECT typeof('.' + 0), quote('.' + 0), quote('.' * 1.0), quote(- '.');
SELECT typeof('-.5' + 0), quote('-.5' + 0), quote('-.5' * 1.0), quote(- '-.5');
SELECT typeof('+.5e1' + 0), quote('+.5e1' + 0), quote('+.5e1' * 1.0), quote(- '+.5e1');
SELECT typeof(' -7 ' + 0), quote(' -7 ' + 0), quote(' -7 ' * 1.0), quote(- ' -7 ');
SELECT typeof('1 2' + 0), quote('1 2' + 0), quote('1 2' * 1.0), quote(- '1 2');
SELECT typeof('9223372036854775807' + 0), quote('9223372036854775807' + 0), quote('9223372036854775807' * 1.0), quote(- '9223372036854775807');
SELECT typeof('9223372036854775808' + 0), quote('9223372036854775808' + 0), quote('9223372036854775808' * 1.0), quote(- '9223372036854775808');
SELECT typeof('-9223372036854775808' + 0), quote('-9223372036854775808' + 0), quote('-9223372036854775808' * 1.0), quote(- '-9223372036854775808');
SELECT typeof('1e400' + 0), quote('1e400' + 0), quote('1e400' * 1.0), quote(- '1e400');
SELECT typeof('3.0' + 0), quote('3.0' + 0), quote('3.0' * 1.0), quote(- '3.0');
SELECT typeof('3.0x' + 0), quote('3.0x' + 0), quote('3.0x' * 1.0), quote(- '3.0x');
SELECT typeof(x'3132' + 0), quote(x'3132' + 0), quote(x'3132' * 1.0), quote(- x'3132');
SELECT typeof(x'312e35' + 0), quote(x'312e35' + 0), quote(x'312e35' * 1.0), quote(- x'312e35');
SELECT typeof(x'' + 0), quote(x'' + 0), quote(x'' * 1.0), quote(- x'');
SELECT typeof('
5' + 0), quote('
5' + 0), quote('
5' * 1.0), quote(- '
5');
SELECT typeof('5
' + 0), quote('5
' + 0), quote('5
' * 1.0), quote(- '5
');
SELECT typeof('0000123' + 0), quote('0000123' + 0), quote('0000123' * 1.0), quote(- '0000123');
SELECT typeof('-0' + 0), quote('-0' + 0), quote('-0' * 1.0), quote(- '-0');
SELECT typeof('1.5e+2' + 0), quote('1.5e+2' + 0), quote('1.5e+2' * 1.0), quote(- '1.5e+2');
SELECT typeof('1.5E-2' + 0), quote('1.5E-2' + 0), quote('1.5E-2' * 1.0), quote(- '1.5E-2');
SELECT typeof('1e+' + 0), quote('1e+' + 0), quote('1e+' * 1.0), quote(- '1e+');
SELECT typeof('  ' + 0), quote('  ' + 0), quote('  ' * 1.0), quote(- '  ');
