import { createInterface } from 'node:readline';

/** Asks `questions` in turn on the terminal, without echoing the answers (passwords). */
export async function promptHidden(questions: string[]): Promise<string[]> {
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  // readline echoes what is typed through _writeToOutput; silence it while answers are typed.
  (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = () => {};
  // The iterator buffers lines, so answers typed ahead are not lost between questions.
  const lines = rl[Symbol.asyncIterator]();
  const answers: string[] = [];
  try {
    for (const question of questions) {
      process.stdout.write(question);
      const next = await lines.next();
      process.stdout.write('\n');
      answers.push(next.done ? '' : next.value);
    }
  } finally {
    rl.close();
  }
  return answers;
}
