#include "tools/tool_commands.hpp"

#include "tools/model_commands.hpp"

namespace nestris {

void add_tool_commands(CLI::App& app) {
    add_simulate_command(app);
    add_fidelity_command(app);
    add_render_command(app);
}

}  // namespace nestris
