// nestris-tune: tunes ai-reference/weights.txt (tune_command.cpp).
#include "tools/tune/tune_command.hpp"

int main(int argc, char** argv) { return nestris::tools::run_tune(argc, argv); }
