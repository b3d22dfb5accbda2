/* The physical floor of dispatch: a static program that does nothing but
 * execv the extension named by its first argument. Built by
 * benches/dispatch.rs with `cc -O2 -static`. */
#include <unistd.h>

int main(int argc, char **argv) {
    (void)argc;
    execv(argv[1], argv + 1);
    return 127;
}
