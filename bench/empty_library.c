/* The baseline library of the start-up measurement: one function, no data,
 * nothing to initialise. */
int bench_empty_function(void);

int bench_empty_function(void)
{
	return 0;
}
