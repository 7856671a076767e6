import { expect } from 'chai';
import { LogBudget } from '../../../src/mocks/log/budget.js';
import { RequestLog, type LoggedRequest } from '../../../src/mocks/log/request-log.js';
import { loggedRequest } from '../../helpers/mock-records.js';

const entry = (n: number): LoggedRequest => loggedRequest(`/endpoint/e?n=${n}`, new Date(n).toISOString());
const numbers = (entries: LoggedRequest[]) => entries.map((one) => Number(one.url.split('=')[1]));

describe('a request log between saves', () => {
  it('hands a save the requests the ring still holds, and counts those that left unsaved', () => {
    const log = new RequestLog(3, new LogBudget(1024 * 1024));
    for (let n = 1; n <= 10; n++) log.add(entry(n));
    const taken = log.takeUnsaved();
    expect(numbers(taken.entries)).to.deep.equal([8, 9, 10]);
    expect(taken.skipped).to.equal(7);
  });

  it('keeps the same account through a long flood with no save, as when the data file fails', () => {
    const log = new RequestLog(3, new LogBudget(1024 * 1024));
    for (let n = 1; n <= 1000; n++) log.add(entry(n));
    const taken = log.takeUnsaved();
    expect(numbers(taken.entries)).to.deep.equal([998, 999, 1000]);
    expect(taken.skipped).to.equal(997);
  });

  it('gives back a failed save before what came since, minus what left the ring meanwhile', () => {
    const log = new RequestLog(3, new LogBudget(1024 * 1024));
    for (let n = 1; n <= 3; n++) log.add(entry(n));
    const taken = log.takeUnsaved();
    log.saved();
    for (let n = 4; n <= 5; n++) log.add(entry(n));
    log.untake(taken, log.clears);
    const again = log.takeUnsaved();
    expect(numbers(again.entries)).to.deep.equal([3, 4, 5]);
    expect(again.skipped).to.equal(2);
  });
});
