import { describe, expect, it } from '@jest/globals';
import { ApiError } from '../http/api-error.js';
import { restProfile, sseProfile } from './profiles.js';

describe('client profile detection', () => {
  it('REST: the Python client by its User-Agent (any version), everyone else spec', () => {
    expect(restProfile({ 'user-agent': 'sharpapi-python/0.2.5' })).toBe('python');
    expect(restProfile({ 'user-agent': 'SharpAPI-Python/0.4.1 httpx' })).toBe('python');
    expect(restProfile({ 'user-agent': 'python-httpx/0.27' })).toBe('spec');
    expect(restProfile({ 'user-agent': 'my-sharpapi-python/1' })).toBe('spec');
    expect(restProfile({})).toBe('spec');
  });

  it('REST: X-Client-Profile wins over the User-Agent, in any case; an unknown one is a 400', () => {
    expect(restProfile({ 'user-agent': 'sharpapi-python/0.2.5', 'x-client-profile': 'spec' })).toBe('spec');
    expect(restProfile({ 'x-client-profile': ' PYTHON ' })).toBe('python');
    expect(() => restProfile({ 'x-client-profile': 'r' })).toThrow(ApiError);
    expect(() => restProfile({ 'x-client-profile': '' })).toThrow(ApiError);
  });

  it('SSE: type= alone is the TypeScript client; channel= or channels= beside it is not', () => {
    expect(sseProfile({}, { type: ['odds'] })).toBe('ts');
    expect(sseProfile({}, { type: ['odds'], channel: ['odds'] })).toBe('spec');
    expect(sseProfile({}, { type: ['odds'], channels: ['odds'] })).toBe('spec');
    expect(sseProfile({}, { channel: ['all'] })).toBe('spec');
    expect(sseProfile({}, {})).toBe('spec');
  });

  it('SSE: client_profile= first, then the header, then the signals', () => {
    expect(sseProfile({ 'x-client-profile': 'spec' }, { type: ['odds'], client_profile: 'ts' })).toBe('ts');
    expect(sseProfile({ 'x-client-profile': 'spec' }, { type: ['odds'] })).toBe('spec');
    expect(sseProfile({ 'x-client-profile': 'ts' }, { channel: ['odds'] })).toBe('ts');
    expect(() => sseProfile({}, { client_profile: 'typescript' })).toThrow(ApiError);
  });
});
