SELECT quote(json_type(x'5b5d'));
SELECT quote(json_quote(json_extract('{"a":"x"}', '$.a')));
SELECT quote(json_array(json_extract('{"a":"x"}', '$.a'), json_extract('{"a":[1]}', '$.a')));
SELECT quote(json_array(json_extract('{"a":{"b":null}}', '$.a'), json_extract('[1]', '$', '$')));
SELECT length(json_set('{}', '$' || replace(hex(zeroblob(5000)), '00', '.a'), 1));
SELECT length(json_insert('[]', '$' || replace(hex(zeroblob(3000)), '00', '[0]'), 'x'));
SELECT json_valid(json_set('{}', '$' || replace(hex(zeroblob(2001)), '00', '.a'), 1));
SELECT json_valid(json_set('{}', '$' || replace(hex(zeroblob(1999)), '00', '.a'), 1));
SELECT substr(json_set('{}', '$' || replace(hex(zeroblob(3000)), '00', '.a'), json('[1]')), 14990);
