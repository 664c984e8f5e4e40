#include <cstdio>
#include <vector>
#include <cuda_runtime.h>
typedef std::vector<size_t> V;
size_t used(){size_t f,t;cudaDeviceSynchronize();cudaMemGetInfo(&f,&t);return t-f;}
void add(V&v,long k,long n,long c,int mx){long G=32,kp=(k+G-1)/G*G;for(long i=0;i<c;i++){if(mx){v.push_back(n*kp);v.push_back(n*kp/G);}else v.push_back(2*n*k);}}
void P(V&v,long e,long c){for(long i=0;i<c;i++)v.push_back(2*e);}
void meas(const char*nm,V&v,int ar){size_t p=0;for(auto b:v)p+=b;size_t u0=used();std::vector<void*>q;if(ar){size_t t=0;for(auto b:v)t+=(b+255)/256*256;void*x;cudaMalloc(&x,t);cudaMemset(x,0,t);q.push_back(x);}else for(auto b:v){void*x;cudaMalloc(&x,b);cudaMemset(x,0,b);q.push_back(x);}long d=used()-u0;printf("%s %s n=%zu pred=%zu meas=%ld %.3f%%\n",nm,ar?"arena":"per",q.size(),p,d,100.0*(d-(double)p)/p);for(auto x:q)cudaFree(x);}
int main(){cudaFree(0);for(int mx=0;mx<2;mx++){V b,l;add(b,768,2304,12,mx);add(b,768,768,12,mx);add(b,768,3072,12,mx);add(b,3072,768,12,mx);P(b,23440896,1);P(b,393216,1);P(b,1536,1);P(b,768,2);P(b,2304,12);P(b,768,12);P(b,3072,12);P(b,768,12);P(b,768,48);
add(l,4096,12288,32,mx);add(l,4096,4096,32,mx);add(l,4096,22016,32,mx);add(l,11008,4096,32,mx);add(l,4096,32000,1,mx);P(l,131072000,1);P(l,4096,65);
for(int a=0;a<2;a++){meas(mx?"bert mx32":"bert bf16",b,a);meas(mx?"llama mx32":"llama bf16",l,a);}}
V s;for(int i=0;i<100;i++)s.push_back(1536);meas("small1536x100",s,0);V s2;for(int i=0;i<20;i++)s2.push_back(1769472);meas("1.69MiBx20",s2,0);}
