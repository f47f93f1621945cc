int loop(int n) {
    int s = 0, i = 0;
    while (i < n) {
        if (i & 1)
            s += i;
        else
            s -= i;
        i++;
    }
    return s;
}
