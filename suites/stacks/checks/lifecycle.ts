import fc from 'fast-check';
import { checkProperty } from '../../core/property';
import { createCommand, deleteCommand, getCommand, listCommand } from '../model/commands';
import type { StackModel, StackReal } from '../model/model';
import { deleteStack, LIVE_STATES, stacksOf, type StacksCheck, type StacksRequirementId } from '../support';

const REQUIREMENTS: StacksRequirementId[] = [
  'STK-OWNERSHIP',
  'STK-CREATE-VISIBLE',
  'STK-GET-200',
  'STK-GET-404',
  'STK-DELETE-204',
  'STK-DELETE-404',
  'STK-LIMIT-409',
  'STK-CREATE-202',
  'STK-ID-UNIQUE',
];

export const lifecycleMatchesModel: StacksCheck = {
  id: 'stacks.lifecycle.model',
  title:
    'Any sequence of create, list, get and delete by two users MUST agree with the documented model (ownership, visibility, limit, delete)',
  requirements: REQUIREMENTS,
  // Every stack it creates counts against the caller's limit, which other creating checks need free.
  shares: ['stack-quota'],
  async run(ctx) {
    const users = ctx.has('second') ? ['primary', 'second'] : ['primary'];
    const user = fc.constantFrom(...users);
    const commands = fc.commands(
      [
        user.map(createCommand),
        user.map(listCommand),
        fc.tuple(user, fc.nat(20)).map(([u, n]) => getCommand(u, n)),
        fc.tuple(user, fc.nat(20)).map(([u, n]) => deleteCommand(u, n)),
      ],
      { maxCommands: 14 },
    );
    const exercised = new Set<string>();
    // Read once: the check shares the quota, so no other check adds stacks meanwhile, and what a sequence deleted may
    // still count is the run's recent deletes (model/commands.ts), not a new list before every sequence.
    const preexisting = new Map<string, { active: number; listed: number }>();
    for (const u of users) {
      const stacks = stacksOf(await ctx.http.send('listStacks', { as: u }));
      preexisting.set(u, { active: stacks.filter((s) => LIVE_STATES.includes(s.state)).length, listed: stacks.length });
    }
    const property = fc.asyncProperty(commands, async (cmds) => {
      const model: StackModel = {
        users,
        owner: new Map(),
        live: new Set(),
        deleted: new Set(),
        preexisting,
        limit: new Map(),
        ids: [],
        exercised,
      };
      const real: StackReal = { ctx, created: [] };
      try {
        await fc.asyncModelRun(() => ({ model, real }), cmds);
      } finally {
        for (const ex of real.created) if (model.live.has(ex.json!.id)) await deleteStack(ctx, ex, model.owner.get(ex.json!.id));
      }
    });
    // Sequences a small budget may not draw: two stacks of one caller side by side, and a stack another caller owns.
    const examples: [Iterable<fc.AsyncCommand<StackModel, StackReal>>][] = [
      [[createCommand('primary'), createCommand('primary'), listCommand('primary'), getCommand('primary', 0), getCommand('primary', 1)]],
    ];
    if (users.includes('second'))
      examples.push([
        [createCommand('second'), listCommand('primary'), getCommand('primary', 0), deleteCommand('primary', 0), getCommand('second', 0)],
      ]);
    await checkProperty(ctx, REQUIREMENTS, 'stack lifecycle model', property, { exercised, examples });
  },
};
