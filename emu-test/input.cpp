#include "emu-test/input.hpp"

#include "emu-test/controller.hpp"

namespace nestris::emu {

namespace {

constexpr const char* kGrammar =
    " (a frame is '.' or buttons L R U D A B S E joined by '+'; '*N' repeats; '(...)' groups)";

int button_bit(char c) {
    switch (c) {
    case 'L': return button::Left;
    case 'R': return button::Right;
    case 'U': return button::Up;
    case 'D': return button::Down;
    case 'A': return button::A;
    case 'B': return button::B;
    case 'S': return button::Start;
    case 'E': return button::Select;
    default: return -1;
    }
}

class Parser {
public:
    explicit Parser(std::string_view text) : text_(text) {}

    std::vector<uint8_t> parse() {
        std::vector<uint8_t> out;
        sequence(out, 0);
        if (pos_ < text_.size()) fail("unexpected ')'");
        return out;
    }

private:
    std::string_view text_;
    size_t pos_ = 0;

    [[noreturn]] void fail(const std::string& what) const {
        throw InputError("input string, column " + std::to_string(pos_ + 1) + ": " + what +
                         kGrammar);
    }
    static bool separator(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ','; }
    void skip() {
        while (pos_ < text_.size() && separator(text_[pos_])) ++pos_;
    }
    bool at_end() const { return pos_ >= text_.size(); }
    char peek() const { return text_[pos_]; }

    void append(std::vector<uint8_t>& out, const std::vector<uint8_t>& item, size_t times) {
        if (item.size() * times > kMaxInputFrames - out.size()) {
            fail("more than " + std::to_string(kMaxInputFrames) + " frames");
        }
        for (size_t i = 0; i < times; ++i) out.insert(out.end(), item.begin(), item.end());
    }

    void sequence(std::vector<uint8_t>& out, int depth) {
        for (;;) {
            skip();
            if (at_end() || peek() == ')') return;
            std::vector<uint8_t> item;
            if (peek() == '(') {
                if (depth > 32) fail("groups nested too deeply");
                ++pos_;
                sequence(item, depth + 1);
                if (at_end() || peek() != ')') fail("missing ')'");
                ++pos_;
            } else {
                item.push_back(frame());
            }
            append(out, item, repeat());
        }
    }

    uint8_t frame() {
        if (peek() == '.') {
            ++pos_;
            return 0;
        }
        uint8_t buttons = 0;
        for (;;) {
            if (at_end()) fail("a button is missing after '+'");
            const int bit = button_bit(peek());
            if (bit < 0) fail(std::string("unknown button '") + peek() + "'");
            if (buttons & bit) fail(std::string("button '") + peek() + "' twice in one frame");
            buttons = static_cast<uint8_t>(buttons | bit);
            ++pos_;
            if (at_end() || peek() != '+') return buttons;
            ++pos_;
        }
    }

    size_t repeat() {
        if (at_end() || peek() != '*') return 1;
        ++pos_;
        size_t n = 0;
        const size_t start = pos_;
        while (!at_end() && peek() >= '0' && peek() <= '9') {
            n = n * 10 + static_cast<size_t>(peek() - '0');
            if (n > kMaxInputFrames) fail("repeat count larger than " + std::to_string(kMaxInputFrames));
            ++pos_;
        }
        if (pos_ == start) fail("a number must follow '*'");
        if (n == 0) fail("repeat count 0");
        return n;
    }
};

}  // namespace

std::vector<uint8_t> parse_input(std::string_view text) { return Parser(text).parse(); }

std::string format_buttons(uint8_t buttons) {
    if (!buttons) return ".";
    static constexpr struct {
        uint8_t bit;
        char c;
    } order[] = {{button::Left, 'L'}, {button::Right, 'R'}, {button::Up, 'U'}, {button::Down, 'D'},
                 {button::A, 'A'},    {button::B, 'B'},     {button::Start, 'S'}, {button::Select, 'E'}};
    std::string s;
    for (const auto& o : order) {
        if (!(buttons & o.bit)) continue;
        if (!s.empty()) s += '+';
        s += o.c;
    }
    return s;
}

}  // namespace nestris::emu
