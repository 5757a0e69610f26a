select k from a left join (b join c on b.k=c.k) on b.k=a.k;
