#include <stdio.h>
int main(void) { puts("goref"); return 0; }
