/* writer.h - the trace writer's test driver and its fake runtime. */
#ifndef PATHPROF_TEST_WRITER_H
#define PATHPROF_TEST_WRITER_H

/* Reads DIR/tu0.blob and DIR/tu1.blob (tests/trace/mktrace.pl --blobs). */
void fake_runtime_load(const char *dir);

#endif
