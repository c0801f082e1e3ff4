/* Prints what the runtime library's report() finds. */
void report(void);

int main(void)
{
	report();
	return 0;
}
