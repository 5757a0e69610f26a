SELECT nosuch.x FROM a;
