/* vfork-wrap.c - vfork, so that a vfork child's events count (stream mode).
 *
 * A vfork child runs on its parent's memory, thread-local storage
 * included, until it calls exec or _exit, and the parent thread stays
 * suspended meanwhile.  Its probes write into the parent thread's current
 * chunk as the parent's events, and counting mode counts them in the
 * shared counters.  When that chunk filled, the slow path could not tell
 * a vfork child from a clone(CLONE_VM) one, whose parent runs on at the
 * same time, and counted the rest late (dash builds an exec's environment
 * in its vfork child: 315 events of 13 M, the profile not exact).  A
 * vfork child may swap chunks as the suspended thread would: same
 * channel, same analyzers (they run in the parent, on the same memory).
 *
 * This vfork first gives the thread a channel if it has none yet (a
 * thread whose first events are its child's: pprt_vfork_prepare), then
 * marks the thread before the system call; the parent clears
 * the mark when it resumes (the child has exec'd or exited by then), the
 * child keeps it.  The slow path (producer.c) lets a marked child with a
 * channel swap chunks, and never attach or reset.  x86-64 only: elsewhere
 * libc's vfork runs and such a child's events past the chunk stay late.
 * It must be assembly: the child returns on the parent's stack, so
 * vfork may not keep anything on it across the call (as libc's own). */
#include "vfork-wrap.h"

#include <errno.h>

__thread int pprt_vfork_child __attribute__((tls_model("initial-exec"), visibility("hidden")));

#if defined(__x86_64__) && defined(__linux__)
__attribute__((visibility("hidden"), used)) long pprt_vfork_failed(long neg_errno);
long pprt_vfork_failed(long neg_errno)
{
    errno = (int)-neg_errno;
    return -1;
}

/* The return address is popped into %rdi (the system call keeps it) and
 * pushed back after, so the child's returning cannot clobber it. */
__asm__(".text\n"
        ".globl vfork\n"
        ".type vfork, @function\n"
        "vfork:\n"
        "    .cfi_startproc\n"
        "    subq $8, %rsp\n" /* the call's 16-byte alignment */
        "    .cfi_adjust_cfa_offset 8\n"
        "    call pprt_vfork_prepare\n"
        "    addq $8, %rsp\n"
        "    .cfi_adjust_cfa_offset -8\n"
        "    movq pprt_vfork_child@gottpoff(%rip), %rax\n"
        "    movl $1, %fs:(%rax)\n"
        "    popq %rdi\n"
        "    .cfi_adjust_cfa_offset -8\n"
        "    .cfi_register %rip, %rdi\n"
        "    movl $58, %eax\n" /* SYS_vfork */
        "    syscall\n"
        "    pushq %rdi\n"
        "    .cfi_adjust_cfa_offset 8\n"
        "    .cfi_rel_offset %rip, 0\n"
        "    testq %rax, %rax\n"
        "    jz 1f\n" /* the child: keeps the mark */
        "    movq pprt_vfork_child@gottpoff(%rip), %rcx\n"
        "    movl $0, %fs:(%rcx)\n"
        "    cmpq $-4095, %rax\n"
        "    jae 2f\n"
        "1:  ret\n"
        "2:  movq %rax, %rdi\n"
        "    jmp pprt_vfork_failed\n"
        "    .cfi_endproc\n"
        ".size vfork, .-vfork\n");
#endif
