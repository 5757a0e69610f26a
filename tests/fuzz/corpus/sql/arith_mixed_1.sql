SELECT quote(i / t), quote(t / i), quote(r % i), quote(-t) FROM m;
