#!/usr/bin/env node
// The command's code is built into dist/; this committed file lets an install in a fresh clone
// link the bin before anything is built.
import '../dist/cli/main.js';
